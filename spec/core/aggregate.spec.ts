import { EMPTY, concat, from, lastValueFrom, of, throwError } from 'rxjs';
import { aggregate, type ChatChunk, type ChatResponse } from '../../lib/index';

function aggregateAll(chunks: ChatChunk[]): Promise<ChatResponse> {
  return lastValueFrom(from(chunks).pipe(aggregate()));
}

/** Splits `text` into fragments at the given cut positions. */
function cut(text: string, positions: number[]): string[] {
  const parts: string[] = [];
  let start = 0;
  for (const position of positions) {
    parts.push(text.slice(start, position));
    start = position;
  }
  parts.push(text.slice(start));
  return parts;
}

describe('aggregate()', () => {
  it('assembles text, reasoning, usage, finish reason and metadata', async () => {
    const response = await aggregateAll([
      { type: 'metadata', id: 'resp-1', model: 'm-1' },
      { type: 'reasoning-delta', text: 'Think' },
      { type: 'reasoning-delta', text: 'ing.' },
      { type: 'text-delta', text: 'Hello' },
      { type: 'text-delta', text: ', world' },
      {
        type: 'usage',
        usage: { inputTokens: 3, outputTokens: 4, totalTokens: 7, cacheReadTokens: 2 },
      },
      { type: 'finish', reason: 'stop' },
    ]);
    expect(response).toEqual({
      message: { role: 'assistant', content: 'Hello, world' },
      text: 'Hello, world',
      reasoning: 'Thinking.',
      usage: { inputTokens: 3, outputTokens: 4, totalTokens: 7, cacheReadTokens: 2 },
      finishReason: 'stop',
      metadata: { id: 'resp-1', model: 'm-1', rounds: 1 },
    });
  });

  const args = '{"city":"Paris","units":["c","f"],"nested":{"a":1}}';
  it.each(Array.from({ length: args.length + 1 }, (_, i) => i))(
    'assembles tool-call arguments cut at character %i the same way',
    async (position) => {
      const [first, second] = cut(args, [position]);
      const response = await aggregateAll([
        {
          type: 'tool-call-delta',
          index: 0,
          id: 'call_a',
          name: 'getTime',
          argumentsDelta: first,
        },
        { type: 'tool-call-delta', index: 1, id: 'call_b', name: 'getUsers', argumentsDelta: '{}' },
        { type: 'tool-call-delta', index: 0, argumentsDelta: second },
        { type: 'finish', reason: 'tool-calls' },
      ]);
      expect(response.message.toolCalls).toEqual([
        { id: 'call_a', name: 'getTime', arguments: args },
        { id: 'call_b', name: 'getUsers', arguments: '{}' },
      ]);
    },
  );

  it('assembles arguments split at every character into the same call', async () => {
    const chunks: ChatChunk[] = [...args].map((character, i) =>
      i === 0
        ? {
            type: 'tool-call-delta',
            index: 0,
            id: 'c1',
            name: 'getTime',
            argumentsDelta: character,
          }
        : { type: 'tool-call-delta', index: 0, argumentsDelta: character },
    );
    const response = await aggregateAll(chunks);
    expect(response.message.toolCalls).toEqual([{ id: 'c1', name: 'getTime', arguments: args }]);
    expect(JSON.parse(response.message.toolCalls![0].arguments)).toEqual(JSON.parse(args));
  });

  it('prefers complete tool-call chunks over the fragments', async () => {
    const response = await aggregateAll([
      { type: 'tool-call-delta', index: 0, id: 'c1', name: 'a', argumentsDelta: '{"x"' },
      { type: 'tool-call-delta', index: 0, argumentsDelta: ':1}' },
      { type: 'tool-call', id: 'c1', name: 'a', arguments: '{"x":1}' },
      { type: 'finish', reason: 'tool-calls' },
    ]);
    expect(response.message.toolCalls).toEqual([{ id: 'c1', name: 'a', arguments: '{"x":1}' }]);
    expect(response.finishReason).toBe('tool-calls');
  });

  it('sums several usage chunks and keeps unreported fields undefined', async () => {
    const response = await aggregateAll([
      { type: 'usage', usage: { inputTokens: 10, outputTokens: 1, totalTokens: 11 } },
      { type: 'usage', usage: { inputTokens: 20, outputTokens: 2, totalTokens: 22 } },
      { type: 'finish', reason: 'stop' },
    ]);
    expect(response.usage).toEqual({ inputTokens: 30, outputTokens: 3, totalTokens: 33 });
    expect(response.usage.cacheReadTokens).toBeUndefined();
  });

  it('reads the rounds of recursive advisors from metadata', async () => {
    const response = await aggregateAll([
      { type: 'text-delta', text: 'done' },
      { type: 'metadata', rounds: 3 },
      { type: 'finish', reason: 'stop' },
    ]);
    expect(response.metadata.rounds).toBe(3);
  });

  it('drops the text of an attempt that a retry chunk replaces', async () => {
    const response = await aggregateAll([
      { type: 'text-delta', text: 'not json' },
      { type: 'usage', usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 } },
      { type: 'retry', attempt: 2, reason: 'invalid', advisor: 'structured-output' },
      { type: 'text-delta', text: '{"ok":true}' },
      { type: 'usage', usage: { inputTokens: 2, outputTokens: 2, totalTokens: 4 } },
      { type: 'finish', reason: 'stop' },
    ]);
    expect(response.text).toBe('{"ok":true}');
    expect(response.usage.totalTokens).toBe(6);
  });

  it('keeps complete reasoning blocks with their signatures on the message', async () => {
    const response = await aggregateAll([
      { type: 'reasoning-delta', text: 'hmm' },
      { type: 'reasoning', text: 'hmm', signature: 'sig-1' },
      { type: 'text-delta', text: 'ok' },
      { type: 'finish', reason: 'stop' },
    ]);
    expect(response.message.reasoning).toEqual([{ text: 'hmm', signature: 'sig-1' }]);
  });

  it('gives an empty response for an empty stream', async () => {
    const response = await lastValueFrom(EMPTY.pipe(aggregate()));
    expect(response.text).toBe('');
    expect(response.finishReason).toBe('other');
    expect(response.usage).toEqual({
      inputTokens: undefined,
      outputTokens: undefined,
      totalTokens: undefined,
    });
    expect(response.message.toolCalls).toBeUndefined();
  });

  it('passes a source error on and emits nothing', async () => {
    const failure = new Error('boom');
    const values: ChatResponse[] = [];
    const source$ = concat(
      of<ChatChunk>({ type: 'text-delta', text: 'partial' }),
      throwError(() => failure),
    );
    await expect(
      new Promise((resolve, reject) =>
        source$.pipe(aggregate()).subscribe({
          next: (v) => values.push(v),
          error: reject,
          complete: () => resolve(undefined),
        }),
      ),
    ).rejects.toBe(failure);
    expect(values).toEqual([]);
  });

  it('starts fresh for every subscription', async () => {
    const aggregated$ = from<ChatChunk[]>([
      { type: 'text-delta', text: 'once' },
      { type: 'finish', reason: 'stop' },
    ]).pipe(aggregate());
    const first = await lastValueFrom(aggregated$);
    const second = await lastValueFrom(aggregated$);
    expect(first.text).toBe('once');
    expect(second.text).toBe('once');
  });

  it('assembles fragments keyed by any index, in index order (a huge index is a key, not an array length)', async () => {
    const response = await lastValueFrom(
      from<ChatChunk[]>([
        { type: 'tool-call-delta', index: 2 ** 32, id: 'b', name: 'second', argumentsDelta: '{}' },
        { type: 'tool-call-delta', index: 0, id: 'a', name: 'first', argumentsDelta: '{"x"' },
        { type: 'tool-call-delta', index: 0, argumentsDelta: ':1}' },
        { type: 'finish', reason: 'tool-calls' },
      ]).pipe(aggregate()),
    );
    expect(response.message.toolCalls).toEqual([
      { id: 'a', name: 'first', arguments: '{"x":1}' },
      { id: 'b', name: 'second', arguments: '{}' },
    ]);
  });
});
