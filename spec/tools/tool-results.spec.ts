import { firstValueFrom, lastValueFrom } from 'rxjs';
import { ChatClient } from '../../lib/client/chat-client';
import type { ChatModel } from '../../lib/core/chat-model';
import type { ToolMessage } from '../../lib/core/message';
import { ToolResultError } from '../../lib/errors/tool-result-error';
import { MockChatModel } from '../../lib/testing/mock-chat-model';
import type { Tool } from '../../lib/core/tool';
import { executeToolCalls } from '../../lib/tools/execute-tool-calls';
import { ToolCallingAdvisor } from '../../lib/tools/tool-calling-advisor';
import type { ToolCallingAdvisorOptions } from '../../lib/tools/tool-calling-advisor-options';
import { tool } from '../../lib/tools/tool-fn';

const noText = (name: string, result: unknown, resultConverter?: (r: unknown) => string): Tool =>
  tool({
    name,
    description: name,
    parameters: {},
    execute: () => result,
    ...(resultConverter === undefined ? {} : { resultConverter }),
  });

function run(
  model: MockChatModel | ChatModel,
  tools: Tool[],
  options: ToolCallingAdvisorOptions = {},
) {
  const client = ChatClient.builder(model)
    .defaultTools(...tools)
    .defaultAdvisors(new ToolCallingAdvisor(options))
    .build();
  return client.prompt('go').stream().chunks();
}

const lastToolMessage = (model: MockChatModel): ToolMessage | undefined =>
  model.requests[1]?.messages.filter((m): m is ToolMessage => m.role === 'tool').at(-1);

describe('tool results that are not text', () => {
  const cases: [string, Tool, string][] = [
    ['a function (JSON.stringify gives undefined)', noText('fn', () => 1), 'undefined'],
    ['a symbol (JSON.stringify gives undefined)', noText('sym', Symbol('s')), 'undefined'],
    [
      'a converter that returns a number',
      noText('num', 'x', () => 42 as unknown as string),
      'number',
    ],
    ['a converter that returns null', noText('nul', 'x', () => null as unknown as string), 'null'],
  ];

  it.each(cases)('%s becomes an error result the model sees', async (_label, t, received) => {
    const model = MockChatModel.script([
      { toolCalls: [{ name: t.name, arguments: {} }] },
      { text: 'Sorry.' },
    ]);
    await lastValueFrom(run(model, [t]));
    expect(lastToolMessage(model)).toEqual({
      role: 'tool',
      toolCallId: 'call_1_0',
      name: t.name,
      content:
        `The tool "${t.name}" returned a result that is not text (its result converter gave ` +
        `${received}). Answer without this result, or call the tool differently.`,
      isError: true,
    });
  });

  it('reports a converter that throws, and an asynchronous result that is not text', async () => {
    const throwing = tool({
      name: 'throwing',
      description: '',
      parameters: {},
      execute: () => 'x',
      resultConverter: () => {
        throw new Error('cannot convert');
      },
    });
    const later = tool({
      name: 'later',
      description: '',
      parameters: {},
      execute: () => Promise.resolve(() => 1),
    });
    const [a, b] = await firstValueFrom(
      executeToolCalls({
        toolCalls: [
          { id: '1', name: 'throwing', arguments: '{}' },
          { id: '2', name: 'later', arguments: '{}' },
        ],
        tools: [throwing, later],
      }),
    );
    expect(a).toMatchObject({ isError: true, toolCallId: '1' });
    expect(a.content).toContain('its result converter gave an error');
    expect(b).toMatchObject({ isError: true, toolCallId: '2' });
    expect(b.content).toContain('its result converter gave undefined');
  });

  it('fails the stream with a ToolResultError under onToolError: throw', async () => {
    const model = MockChatModel.script([{ toolCalls: [{ name: 'fn', arguments: {} }] }]);
    const error: unknown = await lastValueFrom(
      run(model, [noText('fn', () => 1)], { onToolError: 'throw' }),
    ).catch((e: unknown) => e);
    expect(ToolResultError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ toolName: 'fn', toolCallId: 'call_1_0', received: 'undefined' });
  });

  it('keeps an empty string result as it is', async () => {
    const [result] = await firstValueFrom(
      executeToolCalls({
        toolCalls: [{ id: '1', name: 'empty', arguments: '{}' }],
        tools: [noText('empty', '')],
      }),
    );
    expect(result).toEqual({ role: 'tool', toolCallId: '1', name: 'empty', content: '' });
  });
});
