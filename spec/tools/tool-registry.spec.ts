import { firstValueFrom } from 'rxjs';
import { ChatClient } from '../../lib/client/chat-client';
import { InvalidOptionsError } from '../../lib/errors/invalid-options-error';
import { ToolNotFoundError } from '../../lib/errors/tool-not-found-error';
import { MockChatModel } from '../../lib/testing/mock-chat-model';
import { tool } from '../../lib/tools/tool-fn';
import { ToolRegistry } from '../../lib/tools/tool-registry';
import { timeTool } from './support/fixtures';

const weather = tool({
  name: 'getWeather',
  description: 'Weather',
  parameters: {},
  execute: () => 'sun',
});

describe('ToolRegistry', () => {
  it('holds tools by name, in registration order', () => {
    const getTime = timeTool();
    const registry = new ToolRegistry({ tools: [getTime] }).register(weather);
    expect(registry.get('getTime')).toBe(getTime);
    expect(registry.get('nope')).toBeUndefined();
    expect(registry.has('getWeather')).toBe(true);
    expect(registry.names).toEqual(['getTime', 'getWeather']);
    expect(registry.tools).toEqual([getTime, weather]);
    expect(registry.pick('getWeather', 'getTime')).toEqual([weather, getTime]);
  });

  it('rejects a second tool of the same name', () => {
    const registry = new ToolRegistry({ tools: [weather] });
    expect(() => registry.register(weather)).toThrow(InvalidOptionsError);
  });

  it('rejects something that is not a tool', () => {
    expect(() => new ToolRegistry({ tools: [{ name: 'x' } as never] })).toThrow(
      InvalidOptionsError,
    );
  });

  it('pick() names the missing tool and the available ones', () => {
    const registry = new ToolRegistry({ tools: [weather] });
    expect(() => registry.pick('getTime')).toThrow(ToolNotFoundError);
    expect(() => registry.pick('getTime')).toThrow(
      'There is no tool named "getTime" here. Use one of the available tools: "getWeather".',
    );
  });

  it('offers the tools a call picks with toolNames(...) and only those', async () => {
    const model = MockChatModel.script([{ text: 'ok' }]);
    const client = ChatClient.builder(model)
      .defaultToolRegistry(new ToolRegistry({ tools: [timeTool(), weather] }))
      .build();
    await firstValueFrom(client.prompt('x').toolNames('getWeather').call().content());
    expect(model.requests[0].tools.map((t) => t.name)).toEqual(['getWeather']);
  });
});
