// The budget's one hand-written subscriber layer (lib/budget/budget-model-call.ts) gets the
// error and teardown tests RxJS gives its own operators: a source error, a user callback
// that throws, an empty source, early unsubscription (the model call and the deadline torn
// down), a synchronous source stopped at the crossing chunk, and what a cut leaves for the
// run's next model call.
import { Observable, type Subscriber } from 'rxjs';
import { type TestScheduler } from 'rxjs/testing';
import type { ChatChunk } from '../../lib/core/chat-chunk.js';
import { BudgetExceededError } from '../../lib/errors/budget-exceeded-error.js';
import { MockChatModel } from '../../lib/testing/mock-chat-model.js';
import { tool } from '../../lib/tools/tool-fn.js';
import { createTestScheduler } from '../support/test-scheduler';
import { call, finish, run$, text, two } from './support/budget-run';

describe('BudgetAdvisor model call (marble)', () => {
  let testScheduler: TestScheduler;

  beforeEach(() => {
    testScheduler = createTestScheduler();
  });

  it('passes a source error on unchanged and leaves the model call', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const failure = new Error('connection reset');
      const stream = cold('--a--#', { a: text('x') }, failure);
      expectObservable(run$(MockChatModel.fromStreams([stream]), { maxOutputTokens: 5 })).toBe(
        '--a--#',
        { a: text('x') },
        failure,
      );
      expectSubscriptions(stream.subscriptions).toBe('^----!');
    });
  });

  it('fails the call with the error of an estimateTokens that throws, leaving the model call', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const failure = new Error('bad estimator');
      const estimateTokens = (t: string): number => {
        if (t === 'boom') throw failure;
        return t.length / 4;
      };
      const stream = cold('--a--b--c|', { a: text('x'), b: text('boom'), c: text('y') });
      expectObservable(
        run$(MockChatModel.fromStreams([stream]), { maxOutputTokens: 5, estimateTokens }),
      ).toBe('--a--#', { a: text('x') }, failure);
      expectSubscriptions(stream.subscriptions).toBe('^----!');
    });
  });

  it('completes with an empty model stream', () => {
    testScheduler.run(({ cold, expectObservable }) => {
      const stream = cold<ChatChunk>('---|');
      expectObservable(run$(MockChatModel.fromStreams([stream]), { maxOutputTokens: 5 })).toBe(
        '---|',
      );
    });
  });

  it('unsubscribes from the model call and drops the deadline when the caller leaves early', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const stream = cold('--a--b--c--(f|)', {
        a: text('x'),
        b: text('y'),
        c: text('z'),
        f: finish('stop'),
      });
      const run = run$(MockChatModel.fromStreams([stream]), { maxWallTime: 6 });
      expectObservable(run, '^---!').toBe('--a-', { a: text('x') });
      expectSubscriptions(stream.subscriptions).toBe('^---!');
      // Nothing is scheduled past the unsubscription: the deadline timer was torn down.
      testScheduler.schedule(() => {
        expect(testScheduler.actions.map((action) => action.delay)).toEqual([]);
      }, 5);
    });
  });

  it('stops a synchronous model stream at the crossing chunk (nothing more is pulled)', () => {
    let pulled = 0;
    const stream = new Observable<ChatChunk>((subscriber: Subscriber<ChatChunk>) => {
      for (let i = 0; i < 10 && !subscriber.closed; i++) {
        pulled++;
        subscriber.next(text(two));
      }
      subscriber.complete();
    });
    const seen: ChatChunk[] = [];
    let caught: unknown;
    run$(MockChatModel.fromStreams([stream]), { maxOutputTokens: 5 }).subscribe({
      next: (chunk) => seen.push(chunk),
      error: (e: unknown) => {
        caught = e;
      },
    });
    expect(pulled).toBe(3);
    expect(seen).toHaveLength(3);
    expect(BudgetExceededError.isInstance(caught)).toBe(true);
  });

  it("counts no model call for a round whose call the budget did not make ('finish')", () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const round1 = cold('-(cdf|)', {
        c: call('c1', 'now'),
        d: call('c2', 'now'),
        f: finish('tool-calls'),
      });
      const round2 = cold('-a|', { a: text('never') });
      const now = tool({ name: 'now', description: 'now', parameters: {}, execute: () => '12:00' });
      const model = MockChatModel.fromStreams([round1, round2]);
      const stopReason = { type: 'budget-exceeded', limit: 'toolCalls', spent: 2, max: 1 } as const;
      expectObservable(
        run$(model, { maxToolCalls: 1, onExceeded: 'finish' }, { tools: [now], loop: true }),
      ).toBe('-(muf|)', {
        // One model call was made: the second round's was refused.
        m: { type: 'metadata', rounds: 1, stopReason },
        // Nothing reported: unknown stays undefined.
        u: { type: 'usage', usage: {} },
        f: finish('length'),
      });
      expectSubscriptions(round2.subscriptions).toBe([]);
    });
  });
});
