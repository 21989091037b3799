import { lastValueFrom, of, toArray } from 'rxjs';
import { ChatClient } from '../../lib/client/chat-client';
import type { ChatChunk } from '../../lib/core/chat-chunk';
import type { ChatModel } from '../../lib/core/chat-model';
import type { ToolCall } from '../../lib/core/message';
import type { Tool } from '../../lib/core/tool';
import { ToolCallingAdvisor } from '../../lib/tools/tool-calling-advisor';
import type { ToolCallingAdvisorOptions } from '../../lib/tools/tool-calling-advisor-options';
import { tool } from '../../lib/tools/tool-fn';
import { uniqueToolCallIds } from '../../lib/tools/unique-tool-call-ids';

function run(model: ChatModel, tools: Tool[], options: ToolCallingAdvisorOptions = {}) {
  const client = ChatClient.builder(model)
    .defaultTools(...tools)
    .defaultAdvisors(new ToolCallingAdvisor(options))
    .build();
  return client.prompt('go').stream().chunks();
}

describe('duplicate tool-call ids in one round', () => {
  const echo = tool({
    name: 'echo',
    description: '',
    parameters: { type: 'object', properties: { n: { type: 'number' } } },
    execute: ({ n }) => `n=${String(n)}`,
  });

  /** A synchronous model: round 1 asks for three calls, two under one id; round 2 answers. */
  function dupModel(): ChatModel & { requests: unknown[] } {
    const rounds: ChatChunk[][] = [
      [
        { type: 'tool-call', id: 'c1', name: 'echo', arguments: '{"n":1}' },
        { type: 'tool-call', id: 'c1', name: 'echo', arguments: '{"n":2}' },
        { type: 'tool-call', id: 'c1_2', name: 'echo', arguments: '{"n":3}' },
        { type: 'finish', reason: 'tool-calls' },
      ],
      [
        { type: 'text-delta', text: 'done' },
        { type: 'finish', reason: 'stop' },
      ],
    ];
    const model = {
      provider: 'dup',
      requests: [] as unknown[],
      stream: (request: unknown) => {
        model.requests.push(request);
        return of(...(rounds[model.requests.length - 1] ?? []));
      },
    };
    return model;
  }

  it('gives a repeated id a new unique one, in the assistant message and its result', async () => {
    const model = dupModel();
    await lastValueFrom(run(model, [echo]));
    const { messages } = model.requests[1] as { messages: { role: string }[] };
    expect(messages.slice(-4)).toEqual([
      {
        role: 'assistant',
        content: '',
        toolCalls: [
          { id: 'c1', name: 'echo', arguments: '{"n":1}' },
          { id: 'c1_3', name: 'echo', arguments: '{"n":2}' },
          { id: 'c1_2', name: 'echo', arguments: '{"n":3}' },
        ],
      },
      { role: 'tool', toolCallId: 'c1', name: 'echo', content: 'n=1' },
      { role: 'tool', toolCallId: 'c1_3', name: 'echo', content: 'n=2' },
      { role: 'tool', toolCallId: 'c1_2', name: 'echo', content: 'n=3' },
    ]);
  });

  it('with emitToolEvents sends each call once, under the id its result carries', async () => {
    const chunks = await lastValueFrom(
      run(dupModel(), [echo], { emitToolEvents: true }).pipe(toArray()),
    );
    const ids = (type: string) =>
      chunks.flatMap((c) => (c.type === type && 'id' in c && c.id !== undefined ? [c.id] : []));
    expect(ids('tool-call')).toEqual(['c1', 'c1_2', 'c1_3']);
    expect(ids('tool-result')).toEqual(['c1', 'c1_3', 'c1_2']);
  });
});

describe('uniqueToolCallIds', () => {
  const call = (id: string): ToolCall => ({ id, name: 't', arguments: '{}' });

  it('returns the same array when every id is unique', () => {
    const calls = [call('a'), call('b')];
    expect(uniqueToolCallIds(calls)).toBe(calls);
  });

  it('renames 100,000 repeats of one id in linear time (id lookups counted, not timed)', () => {
    const calls = Array.from({ length: 100_000 }, () => call(''));
    const has = jest.spyOn(Set.prototype, 'has');
    let unique: readonly ToolCall[];
    try {
      unique = uniqueToolCallIds(calls);
      // each call is looked up once in `seen` and its new id about once in `taken`
      expect(has.mock.calls.length).toBeLessThanOrEqual(3 * calls.length);
    } finally {
      has.mockRestore();
    }
    expect(new Set(unique.map((c) => c.id)).size).toBe(100_000);
    expect(unique.slice(0, 3).map((c) => c.id)).toEqual(['', '_2', '_3']);
  });
});
