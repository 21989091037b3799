import { firstValueFrom } from 'rxjs';
import { advisor } from '../../lib/advisor-api/advisor.js';
import { Order } from '../../lib/advisor-api/order.js';
import { ChatClient } from '../../lib/client/chat-client';
import { InvalidOptionsError } from '../../lib/errors/invalid-options-error';
import { MockChatModel } from '../../lib/testing/mock-chat-model';
import { executeToolCalls } from '../../lib/tools/execute-tool-calls';
import { tool } from '../../lib/tools/tool-fn';
import { timeTool } from './support/fixtures';

const otherGetTime = tool({
  name: 'getTime',
  description: 'Another tool that happens to have the same name',
  parameters: {},
  execute: () => 'midnight',
});

describe('tools with the same name', () => {
  it('offers a tool given both as a default and on the call once', async () => {
    const getTime = timeTool();
    const model = MockChatModel.script([
      { toolCalls: [{ name: 'getTime', arguments: { city: 'Paris' } }] },
      { text: 'Noon.' },
    ]);
    const client = ChatClient.builder(model).defaultTools(getTime).build();
    const text = await firstValueFrom(client.prompt('time?').tools(getTime).call().content());
    expect(text).toBe('Noon.');
    expect(model.requests.map((request) => request.tools.map((t) => t.name))).toEqual([
      ['getTime'],
      ['getTime'],
    ]);
  });

  it('fails the call with InvalidOptionsError for two different tools, before any model call', async () => {
    const model = MockChatModel.script([{ text: 'never' }]);
    const client = ChatClient.builder(model).defaultTools(timeTool()).build();
    const error = await firstValueFrom(
      client.prompt('time?').tools(otherGetTime).call().content(),
    ).catch((e: unknown) => e);
    expect(InvalidOptionsError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ option: 'tools', value: 'getTime' });
    expect((error as Error).message).toContain('two different tools are named "getTime"');
    expect(model.calls).toBe(0);
  });

  it('fails the loop when an advisor before it adds a different tool with a taken name', async () => {
    const model = MockChatModel.script([
      { toolCalls: [{ name: 'getTime', arguments: { city: 'Paris' } }] },
      { text: 'Noon.' },
    ]);
    const addsTool = advisor({
      name: 'adds-tool',
      order: Order.HIGHEST_PRECEDENCE,
      before: (request) => request.withTools([...request.tools, otherGetTime]),
    });
    const client = ChatClient.builder(model)
      .defaultTools(timeTool())
      .defaultAdvisors(addsTool)
      .build();
    const error = await firstValueFrom(client.prompt('time?').call().content()).catch(
      (e: unknown) => e,
    );
    expect(InvalidOptionsError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ option: 'tools', value: 'getTime' });
    // The first model call asked for the tool; no tool ran and no second call was made.
    expect(model.calls).toBe(1);
  });

  it('rejects two different tools with one name in executeToolCalls', () => {
    expect(() => executeToolCalls({ toolCalls: [], tools: [timeTool(), otherGetTime] })).toThrow(
      InvalidOptionsError,
    );
  });
});
