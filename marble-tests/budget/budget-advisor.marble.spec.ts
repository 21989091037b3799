import { NEVER } from 'rxjs';
import { type TestScheduler } from 'rxjs/testing';
import { createAdvisorChain } from '../../lib/advisor-api/advisor-chain.js';
import { ContextKeys } from '../../lib/advisor-api/context-keys.js';
import { ChatClient } from '../../lib/client/chat-client.js';
import { recursiveAdvisor } from '../../lib/advisor-api/recursive-advisor.js';
import { Order } from '../../lib/advisor-api/order.js';
import { BudgetAdvisor } from '../../lib/budget/budget-advisor.js';
import type { ChatChunk } from '../../lib/core/chat-chunk.js';
import { ChatRequest } from '../../lib/core/chat-request.js';
import { BudgetExceededError } from '../../lib/errors/budget-exceeded-error.js';
import { InvalidOptionsError } from '../../lib/errors/invalid-options-error.js';
import { MockChatModel } from '../../lib/testing/mock-chat-model.js';
import { tool } from '../../lib/tools/tool-fn.js';
import { createTestScheduler } from '../support/test-scheduler';
import { call, finish, run$, text, two } from './support/budget-run';

const usage = (inputTokens: number, outputTokens: number): ChatChunk => ({
  type: 'usage',
  usage: { inputTokens, outputTokens, totalTokens: inputTokens + outputTokens },
});

function errorOf(limit: string, max: number, spent: Partial<BudgetExceededError['spent']>) {
  return new BudgetExceededError({
    limit,
    max,
    spent: {
      inputTokens: 0,
      outputTokens: 0,
      totalTokens: 0,
      cost: 0,
      toolCalls: 0,
      elapsed: 0,
      ...spent,
    },
  });
}

describe('BudgetAdvisor (marble)', () => {
  let testScheduler: TestScheduler;

  beforeEach(() => {
    testScheduler = createTestScheduler();
  });

  it('cuts the model call off at the delta that crosses maxOutputTokens, unsubscribing from the model', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const stream = cold('--a--b--c--d--(uf|)', {
        a: text(two),
        b: text(two),
        c: text(two),
        d: text(two),
        u: usage(3, 8),
        f: finish('stop'),
      });
      const error = errorOf('outputTokens', 5, { outputTokens: 6, totalTokens: 6, elapsed: 8 });
      expectObservable(run$(MockChatModel.fromStreams([stream]), { maxOutputTokens: 5 })).toBe(
        '--a--b--(c#)',
        { a: text(two), b: text(two), c: text(two) },
        error,
      );
      expectSubscriptions(stream.subscriptions).toBe('^-------!');
    });
  });

  it('carries what was spent on the typed error', () => {
    const model = MockChatModel.script([{ text: two.repeat(10) }]);
    let caught: unknown;
    run$(model, { maxTotalTokens: 10 }).subscribe({
      error: (e: unknown) => {
        caught = e;
      },
    });
    expect(BudgetExceededError.isInstance(caught)).toBe(true);
    expect(caught).toMatchObject({ limit: 'totalTokens', max: 10, spentOfLimit: 20 });
    expect((caught as BudgetExceededError).spent).toMatchObject({ outputTokens: 20, toolCalls: 0 });
  });

  it('corrects the estimate with the reported usage: a round over-estimated does not use up the budget', () => {
    testScheduler.run(({ cold, expectObservable }) => {
      // Round 1 is estimated at 6 output tokens, reported as 2; round 2 adds 6: 8 <= 8.
      const round1 = cold('-a-(cuf|)', {
        a: text(two.repeat(3)),
        c: call('c1', 'now'),
        u: usage(0, 2),
        f: finish('tool-calls'),
      });
      const round2 = cold('   -b-(f|)', { b: text(two.repeat(3)), f: finish('stop') });
      const now = tool({ name: 'now', description: 'now', parameters: {}, execute: () => '12:00' });
      const model = MockChatModel.fromStreams([round1, round2]);
      expectObservable(run$(model, { maxOutputTokens: 8 }, { tools: [now], loop: true })).toBe(
        '-a--b-(muf|)',
        {
          a: text(two.repeat(3)),
          b: text(two.repeat(3)),
          m: { type: 'metadata', rounds: 2 },
          u: usage(0, 2),
          f: finish('stop'),
        },
      );
    });
  });

  it("ends gracefully under onExceeded 'finish': unreported usage, the stop reason, finish 'length'", () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const round1 = cold('-(cf|)', { c: call('c1', 'now'), f: finish('tool-calls') });
      const round2 = cold(' -a-b-c-(f|)', {
        a: text(two),
        b: text(two),
        c: text(two),
        f: finish('stop'),
      });
      const now = tool({ name: 'now', description: 'now', parameters: {}, execute: () => '12:00' });
      const model = MockChatModel.fromStreams([round1, round2]);
      const stopReason = {
        type: 'budget-exceeded',
        limit: 'outputTokens',
        spent: 4,
        max: 3,
      } as const;
      expectObservable(
        run$(model, { maxOutputTokens: 3, onExceeded: 'finish' }, { tools: [now], loop: true }),
      ).toBe('--a-(bmuf|)', {
        a: text(two),
        b: text(two),
        m: { type: 'metadata', rounds: 2, stopReason },
        // Round 2's input is estimated too: the tool call's arguments and result (7 characters).
        u: { type: 'usage', usage: { inputTokens: 2, outputTokens: 4, totalTokens: 6 } },
        f: finish('length'),
      });
      expectSubscriptions(round2.subscriptions).toBe('-^--!');
    });
  });

  it('cuts a model call off when the wall time runs out, mid-stream', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const stream = cold('--a------b-(f|)', { a: text('x'), b: text('y'), f: finish('stop') });
      const error = errorOf('wallTime', 5, { outputTokens: 1, totalTokens: 1, elapsed: 5 });
      expectObservable(run$(MockChatModel.fromStreams([stream]), { maxWallTime: 5 })).toBe(
        '--a--#',
        { a: text('x') },
        error,
      );
      expectSubscriptions(stream.subscriptions).toBe('^----!');
    });
  });

  it('cancels a running tool when the wall time runs out (its AbortSignal fires)', () => {
    testScheduler.run(({ cold, expectObservable, flush }) => {
      const round1 = cold('-(cf|)', { c: call('c1', 'slow'), f: finish('tool-calls') });
      const signals: AbortSignal[] = [];
      const slow = tool({
        name: 'slow',
        description: 'slow',
        parameters: {},
        execute: (_args, context) => {
          signals.push(context.signal);
          return NEVER;
        },
      });
      const model = MockChatModel.fromStreams([round1]);
      const error = errorOf('wallTime', 10, { toolCalls: 1, elapsed: 10 });
      expectObservable(run$(model, { maxWallTime: 10 }, { tools: [slow], loop: true })).toBe(
        '----------#',
        {},
        error,
      );
      flush();
      expect(signals).toHaveLength(1);
      expect(signals[0].aborted).toBe(true);
    });
  });

  it('refuses the tool call past maxToolCalls: the loop fails and the tool never runs', () => {
    testScheduler.run(({ cold, expectObservable }) => {
      const round1 = cold('-(cdf|)', {
        c: call('c1', 'now'),
        d: call('c2', 'now'),
        f: finish('tool-calls'),
      });
      let runs = 0;
      const now = tool({
        name: 'now',
        description: 'now',
        parameters: {},
        execute: () => `run ${++runs}`,
      });
      const error = errorOf('toolCalls', 1, { toolCalls: 2, elapsed: 1 });
      const model = MockChatModel.fromStreams([round1]);
      expectObservable(run$(model, { maxToolCalls: 1 }, { tools: [now], loop: true })).toBe(
        '-#',
        {},
        error,
      );
      testScheduler.flush();
      expect(runs).toBe(1);
    });
  });

  it('does not make a call whose input alone would cross maxInputTokens', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const stream = cold('-a|', { a: text('x') });
      const chain = createAdvisorChain({
        advisors: [new BudgetAdvisor({ maxInputTokens: 1 })],
        model: MockChatModel.fromStreams([stream]),
      });
      const request = ChatRequest.create({ messages: [{ role: 'user', content: two.repeat(2) }] });
      expectObservable(chain.next(request)).toBe('#', {}, errorOf('inputTokens', 1, {}));
      expectSubscriptions(stream.subscriptions).toBe([]);
    });
  });

  it('counts the model calls of a nested run against the parent budget (inherit)', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const parentRound = cold('-(cf|)', { c: call('c1', 'agent'), f: finish('tool-calls') });
      const childStream = cold(' -a-b-c|', { a: text(two), b: text(two), c: text(two) });
      const child = createAdvisorChain({
        advisors: [],
        model: MockChatModel.fromStreams([childStream]),
      });
      const agent = tool({
        name: 'agent',
        description: 'a nested run',
        parameters: {},
        execute: (_args, context) =>
          child.next(
            ChatRequest.create({
              messages: [],
              context: new Map([[ContextKeys.PARENT_CALL, context.callContext]]),
            }),
          ),
      });
      const model = MockChatModel.fromStreams([parentRound]);
      const error = errorOf('outputTokens', 3, {
        outputTokens: 4,
        totalTokens: 4,
        toolCalls: 1,
        elapsed: 4,
      });
      expectObservable(run$(model, { maxOutputTokens: 3 }, { tools: [agent], loop: true })).toBe(
        '----#',
        {},
        error,
      );
      expectSubscriptions(childStream.subscriptions).toBe('-^--!');
    });
  });

  it('starts from zero on re-subscription (one budget per call subscription)', () => {
    const model = MockChatModel.script([{ text: two }, { text: two }]);
    const client = ChatClient.builder(model)
      .defaultAdvisors(new BudgetAdvisor({ maxOutputTokens: 3 }))
      .build();
    const chunks$ = client.prompt('').stream().chunks();
    const failures: unknown[] = [];
    for (let i = 0; i < 2; i++) {
      chunks$.subscribe({ error: (e: unknown) => failures.push(e) });
    }
    expect(failures).toEqual([]);
    expect(model.requests).toHaveLength(2);
  });

  it('counts the attempts of a recursive advisor outside it (a retry re-runs advise)', () => {
    const model = MockChatModel.script([{ text: two }, { text: two }]);
    const retry = recursiveAdvisor({
      name: 'retry-once',
      order: Order.HIGHEST_PRECEDENCE,
      next: ({ attempt, request }) => (attempt < 2 ? request : undefined),
    });
    const chain = createAdvisorChain({
      advisors: [retry, new BudgetAdvisor({ maxOutputTokens: 3 })],
      model,
    });
    let caught: unknown;
    chain.next(ChatRequest.create({ messages: [{ role: 'user', content: '' }] })).subscribe({
      error: (e: unknown) => {
        caught = e;
      },
    });
    expect(caught).toMatchObject({ limit: 'outputTokens', spentOfLimit: 4 });
  });

  it('prices tokens by the longest matching model name and cuts off past maxCost', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const metadata: ChatChunk = { type: 'metadata', model: 'pricey-2025-01-01' };
      const stream = cold('-m-a-b-(uf|)', {
        m: metadata,
        a: text(two),
        b: text(two),
        u: usage(0, 4),
        f: finish('stop'),
      });
      const prices = {
        '*': { inputPerMillion: 0, outputPerMillion: 0 },
        pricey: { inputPerMillion: 0, outputPerMillion: 1_000_000 },
      };
      const error = errorOf('cost', 3, { outputTokens: 4, totalTokens: 4, cost: 4, elapsed: 5 });
      expectObservable(run$(MockChatModel.fromStreams([stream]), { maxCost: 3, prices })).toBe(
        '-m-a-(b#)',
        { m: metadata, a: text(two), b: text(two) },
        error,
      );
      expectSubscriptions(stream.subscriptions).toBe('^----!');
    });
  });

  it('rejects a budget without limits, a cost limit without prices, and bad values', () => {
    expect(() => new BudgetAdvisor({})).toThrow(/at least one limit/);
    expect(() => new BudgetAdvisor({ maxCost: 1 })).toThrow(/prices/);
    expect(() => new BudgetAdvisor({ maxOutputTokens: -1 })).toThrow(InvalidOptionsError);
    expect(() => new BudgetAdvisor({ maxWallTime: 0 })).toThrow(/maxWallTime/);
    const badPrices = { maxCost: 1, prices: { m: { inputPerMillion: -1, outputPerMillion: 1 } } };
    expect(() => new BudgetAdvisor(badPrices)).toThrow(/prices/);
  });
});
