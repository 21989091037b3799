import { EMPTY, firstValueFrom, lastValueFrom, of, toArray, timer, map } from 'rxjs';
import {
  aggregate,
  ChatRequest,
  createAdvisorChain,
  InvalidOptionsError,
  ProviderError,
  recursiveAdvisor,
  type ChatChunk,
  type RecursionState,
} from '../../lib/index';
import { MockChatModel } from '../../lib/testing/index';

const request = ChatRequest.create({ messages: [{ role: 'user', content: 'Hi' }] });

function run(
  model: MockChatModel,
  next: Parameters<typeof recursiveAdvisor>[0]['next'],
  before?: (r: ChatRequest) => ChatRequest,
) {
  const advisor = recursiveAdvisor({
    name: 'again',
    order: 0,
    next,
    ...(before ? { before } : {}),
  });
  return createAdvisorChain({ advisors: [advisor], model }).next(request);
}

describe('recursiveAdvisor', () => {
  it('passes one attempt through and ends with metadata, usage and finish', async () => {
    const model = MockChatModel.script([
      { text: 'Hello there', usage: { inputTokens: 3, outputTokens: 2 } },
    ]);
    const chunks = await lastValueFrom(run(model, () => undefined).pipe(toArray()));
    expect(chunks).toEqual([
      { type: 'text-delta', text: 'Hello' },
      { type: 'text-delta', text: ' there' },
      { type: 'metadata', id: 'mock-1', model: 'mock-model', rounds: 1 },
      { type: 'usage', usage: { inputTokens: 3, outputTokens: 2, totalTokens: 5 } },
      { type: 'finish', reason: 'stop' },
    ]);
  });

  it('re-runs the chain with the request next returns, with a retry chunk between attempts', async () => {
    const model = MockChatModel.script([
      { text: 'one', usage: { inputTokens: 1, outputTokens: 1 } },
      { text: 'two', usage: { inputTokens: 2, outputTokens: 2 } },
    ]);
    const seen: RecursionState[] = [];
    const chunks = await lastValueFrom(
      run(model, (state) => {
        seen.push(state);
        return state.attempt === 1
          ? {
              request: state.request.appendMessages({ role: 'user', content: 'again' }),
              reason: 'more',
            }
          : undefined;
      }).pipe(toArray()),
    );
    expect(chunks).toEqual([
      { type: 'text-delta', text: 'one' },
      { type: 'retry', attempt: 2, reason: 'more', advisor: 'again' },
      { type: 'text-delta', text: 'two' },
      { type: 'metadata', id: 'mock-2', model: 'mock-model', rounds: 2 },
      { type: 'usage', usage: { inputTokens: 3, outputTokens: 3, totalTokens: 6 } },
      { type: 'finish', reason: 'stop' },
    ]);
    expect(seen.map((s) => [s.attempt, s.response?.text, s.response?.usage.totalTokens])).toEqual([
      [1, 'one', 2],
      [2, 'two', 4],
    ]);
    expect(model.requests[1].messages.at(-1)).toEqual({ role: 'user', content: 'again' });
    expect(model.requests[0].messages).toEqual(request.messages);
  });

  it('runs 1,000 attempts against a synchronous model to the end', async () => {
    const attempts = 1_000;
    const model = MockChatModel.script([{ text: 'x' }], { onExhausted: 'repeat-last' });
    const response = await lastValueFrom(
      aggregate()(run(model, (state) => (state.attempt < attempts ? state.request : undefined))),
    );
    expect(response.metadata.rounds).toBe(attempts);
    expect(model.calls).toBe(attempts);
    expect(response.text).toBe('x');
  });

  it('accepts a ChatRequest, a Promise or an Observable as the decision', async () => {
    const model = MockChatModel.script([
      { text: 'a' },
      { text: 'b' },
      { text: 'c' },
      { text: 'd' },
    ]);
    const response = await firstValueFrom(
      run(model, ({ attempt, request: r }) => {
        if (attempt === 1) return r;
        if (attempt === 2) return Promise.resolve(r);
        if (attempt === 3) return timer(0).pipe(map(() => r));
        return EMPTY; // an empty Observable stops
      }).pipe(aggregate()),
    );
    expect(response.text).toBe('d');
    expect(response.metadata.rounds).toBe(4);
  });

  it('sums the rounds that inner metadata chunks report (a tool loop below)', async () => {
    const inner: ChatChunk[] = [
      { type: 'text-delta', text: 'x' },
      { type: 'metadata', id: 'r', model: 'm', rounds: 3 },
      { type: 'usage', usage: { inputTokens: 5, outputTokens: 1, totalTokens: 6 } },
      { type: 'finish', reason: 'stop' },
    ];
    const model = MockChatModel.respond(() => of(...inner));
    const response = await firstValueFrom(
      run(model, ({ attempt, request: r }) => (attempt < 2 ? r : undefined)).pipe(aggregate()),
    );
    expect(response.metadata.rounds).toBe(6);
    expect(response.usage.totalTokens).toBe(12);
  });

  it('adds usage reported through addUsage', async () => {
    const model = MockChatModel.script([{ text: 'a', usage: { inputTokens: 1, outputTokens: 1 } }]);
    const response = await firstValueFrom(
      run(model, ({ addUsage }) => {
        addUsage({ inputTokens: 10, outputTokens: 4, totalTokens: 14 });
        return undefined;
      }).pipe(aggregate()),
    );
    expect(response.usage).toEqual({ inputTokens: 11, outputTokens: 5, totalTokens: 16 });
  });

  it('re-throws the error of a failed attempt when next stops, and recovers when it re-runs', async () => {
    const failing = new ProviderError({
      provider: 'mock',
      message: 'overloaded',
      status: 529,
      retryable: true,
    });
    const stopModel = MockChatModel.script([{ text: 'par', error: failing }]);
    await expect(lastValueFrom(run(stopModel, () => undefined))).rejects.toBe(failing);

    const model = MockChatModel.script([{ text: 'par', error: failing }, { text: 'full' }]);
    const states: RecursionState[] = [];
    const chunks = await lastValueFrom(
      run(model, (state) => {
        states.push(state);
        return state.error === undefined ? undefined : state.request;
      }).pipe(toArray()),
    );
    expect(states[0].error).toBe(failing);
    expect(states[0].response).toBeUndefined();
    expect(chunks.filter((c) => c.type === 'text-delta' || c.type === 'retry')).toEqual([
      { type: 'text-delta', text: 'par' },
      { type: 'retry', attempt: 2, reason: 'retry', advisor: 'again' },
      { type: 'text-delta', text: 'full' },
    ]);
    expect(chunks.find((c) => c.type === 'metadata')).toMatchObject({ rounds: 2 });
  });

  it('fails the stream when next throws', async () => {
    const model = MockChatModel.script([{ text: 'a' }]);
    await expect(
      lastValueFrom(
        run(model, () => {
          throw new Error('judge crashed');
        }),
      ),
    ).rejects.toThrow('judge crashed');
  });

  it('handles an empty model stream', async () => {
    const model = MockChatModel.respond(() => EMPTY);
    const chunks = await lastValueFrom(run(model, () => undefined).pipe(toArray()));
    expect(chunks).toEqual([
      { type: 'metadata', rounds: 1 },
      {
        type: 'usage',
        usage: { inputTokens: undefined, outputTokens: undefined, totalTokens: undefined },
      },
      { type: 'finish', reason: 'other' },
    ]);
  });

  it('applies before once, to the first request; retries derive from originalRequest', async () => {
    const model = MockChatModel.script([{ text: 'a' }, { text: 'b' }]);
    await lastValueFrom(
      run(
        model,
        ({ attempt, originalRequest }) => (attempt === 1 ? originalRequest : undefined),
        (r) => r.withOptions({ temperature: 0 }),
      ),
    );
    expect(model.requests.map((r) => r.options.temperature)).toEqual([0, 0]);
    expect(model.requests[1]).toBe(model.requests[0]);
  });

  it('keeps state per subscription', async () => {
    const model = MockChatModel.respond(() => ({
      text: 'x',
      usage: { inputTokens: 1, outputTokens: 1 },
    }));
    const chunks$ = run(model, ({ attempt, request: r }) => (attempt < 2 ? r : undefined));
    const first = await firstValueFrom(chunks$.pipe(aggregate()));
    const second = await firstValueFrom(chunks$.pipe(aggregate()));
    expect(second.metadata.rounds).toBe(2);
    expect(second.usage).toEqual(first.usage);
    expect(model.calls).toBe(4);
  });

  it('creates the state of each run with start, once per subscription, and hands it to every next', async () => {
    const model = MockChatModel.respond(() => ({ text: 'x' }));
    const started: ChatRequest[] = [];
    const advisor = recursiveAdvisor({
      name: 'collect',
      order: 0,
      before: (r) => r.withOptions({ temperature: 0 }),
      start: (first) => {
        started.push(first);
        return { attempts: [] as number[] };
      },
      next: ({ attempt, request: r }, run) => {
        run.attempts.push(attempt);
        return attempt < 2 ? r : undefined;
      },
    });
    const chain = createAdvisorChain({ advisors: [advisor], model });
    const chunks$ = chain.next(request);
    expect(started).toEqual([]); // cold: nothing before subscription
    await lastValueFrom(chunks$);
    await lastValueFrom(chunks$);
    expect(started).toHaveLength(2);
    expect(started[0]?.options.temperature).toBe(0);
    // each run sees its own state, holding both of its attempts
    const runs: number[][] = [];
    const seen = recursiveAdvisor<number[]>({
      name: 'seen',
      order: 0,
      start: () => {
        const attempts: number[] = [];
        runs.push(attempts);
        return attempts;
      },
      next: ({ attempt, request: r }, attempts) => {
        attempts.push(attempt);
        return attempt < 2 ? r : undefined;
      },
    });
    const seen$ = createAdvisorChain({ advisors: [seen], model }).next(request);
    await lastValueFrom(seen$);
    await lastValueFrom(seen$);
    expect(runs).toEqual([
      [1, 2],
      [1, 2],
    ]);
  });

  it('fails the stream, not the caller, when start throws', async () => {
    const model = MockChatModel.respond(() => ({ text: 'x' }));
    const advisor = recursiveAdvisor({
      name: 'broken',
      order: 0,
      start: () => {
        throw new Error('no state');
      },
      next: () => undefined,
    });
    const chunks$ = createAdvisorChain({ advisors: [advisor], model }).next(request);
    await expect(lastValueFrom(chunks$)).rejects.toThrow('no state');
    expect(model.calls).toBe(0);
  });

  it('rejects bad options', () => {
    expect(() => recursiveAdvisor({ name: '', order: 0, next: () => undefined })).toThrow(
      InvalidOptionsError,
    );
    expect(() =>
      recursiveAdvisor({ name: 'x', order: 0, start: 'no' as never, next: () => undefined }),
    ).toThrow(/start/);
    expect(() => recursiveAdvisor({ name: 'x', order: Number.NaN, next: () => undefined })).toThrow(
      /order/,
    );
    expect(() => recursiveAdvisor({ name: 'x', order: 0, next: 'no' as never })).toThrow(/next/);
  });
});
