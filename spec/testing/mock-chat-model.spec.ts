import { lastValueFrom, toArray } from 'rxjs';
import { aggregate, ChatRequest, InvalidOptionsError, ProviderError } from '../../lib/index';
import { MockChatModel, mockChunks } from '../../lib/testing/index';

const request = ChatRequest.create({ messages: [{ role: 'user', content: 'Hi' }] });

describe('MockChatModel', () => {
  it('plays scripted rounds in order and records every request', async () => {
    const model = MockChatModel.script([
      {
        toolCalls: [{ name: 'getTime', arguments: { city: 'Paris' } }],
        usage: { inputTokens: 10, outputTokens: 5 },
      },
      { text: 'It is noon in Paris.', usage: { inputTokens: 20, outputTokens: 7 } },
    ]);
    const first = await lastValueFrom(model.stream(request).pipe(aggregate()));
    const second = await lastValueFrom(
      model.stream(request.appendMessages({ role: 'user', content: 'again' })).pipe(aggregate()),
    );
    expect(first.message.toolCalls).toEqual([
      { id: 'call_1_0', name: 'getTime', arguments: '{"city":"Paris"}' },
    ]);
    expect(first.finishReason).toBe('tool-calls');
    expect(first.usage).toEqual({ inputTokens: 10, outputTokens: 5, totalTokens: 15 });
    expect(second.text).toBe('It is noon in Paris.');
    expect(second.finishReason).toBe('stop');
    expect(model.requests.map((r) => r.messages.length)).toEqual([1, 2]);
  });

  it('streams text in several deltas and arguments in several fragments', () => {
    const chunks = mockChunks(
      { text: 'It is noon', toolCalls: [{ name: 'f', arguments: { a: 'long value' } }] },
      1,
      'm',
    );
    expect(chunks.filter((c) => c.type === 'text-delta')).toHaveLength(3);
    expect(chunks.filter((c) => c.type === 'tool-call-delta').length).toBeGreaterThan(1);
    expect(chunks.at(-1)).toEqual({ type: 'finish', reason: 'tool-calls' });
  });

  it('sends exact deltas and malformed arguments when asked', async () => {
    const model = MockChatModel.script([
      {
        text: ['a', 'b'],
        toolCalls: [{ id: 'x', name: 'f', arguments: '{oops' }],
        finishReason: 'length',
      },
    ]);
    const response = await lastValueFrom(model.stream(request).pipe(aggregate()));
    expect(response.text).toBe('ab');
    expect(response.message.toolCalls).toEqual([{ id: 'x', name: 'f', arguments: '{oops' }]);
    expect(response.finishReason).toBe('length');
  });

  it('fails with a ProviderError for a scripted error string, after the partial chunks', async () => {
    const model = MockChatModel.script([{ text: 'partial', error: 'overloaded' }]);
    const seen: string[] = [];
    await expect(
      lastValueFrom(model.stream(request).pipe(toArray())).catch((error: unknown) => {
        seen.push(ProviderError.isInstance(error) ? `${error.provider}:${error.message}` : 'other');
        throw error;
      }),
    ).rejects.toBeInstanceOf(ProviderError);
    expect(seen).toEqual(['mock:mock: overloaded']);
  });

  it('fails clearly when the script runs out, or repeats the last round when asked', async () => {
    const strict = MockChatModel.script([{ text: 'only' }]);
    await lastValueFrom(strict.stream(request));
    await expect(lastValueFrom(strict.stream(request))).rejects.toThrow(/script ran out/);
    await expect(lastValueFrom(strict.stream(request))).rejects.toBeInstanceOf(InvalidOptionsError);
    const repeating = MockChatModel.script([{ text: 'again' }], { onExhausted: 'repeat-last' });
    await lastValueFrom(repeating.stream(request));
    expect((await lastValueFrom(repeating.stream(request).pipe(aggregate()))).text).toBe('again');
  });

  it('answers from a function of the request', async () => {
    const model = MockChatModel.respond(
      (r, call) => ({ text: `${call}: ${r.lastUserText ?? ''}` }),
      { provider: 'echo' },
    );
    expect(model.provider).toBe('echo');
    expect((await lastValueFrom(model.stream(request).pipe(aggregate()))).text).toBe('1: Hi');
  });

  it('is cold: nothing is recorded before subscription', () => {
    const model = MockChatModel.script([{ text: 'x' }]);
    const stream$ = model.stream(request);
    expect(model.calls).toBe(0);
    stream$.subscribe();
    expect(model.calls).toBe(1);
  });
});
