import { filter, isObservable, map, type Observable } from 'rxjs';
import { type TestScheduler } from 'rxjs/testing';
import type { ModelCall } from '../../lib/advisor-api/model-call-interceptor';
import type {
  ToolCallEvent,
  ToolCallInvocation,
} from '../../lib/advisor-api/tool-call-interceptor';
import type { ChatChunk } from '../../lib/core/chat-chunk';
import { ChatRequest } from '../../lib/core/chat-request';
import type { ToolMessage } from '../../lib/core/message';
import { Delivery } from '../../lib/run/durable/delivery';
import { DurableRunState } from '../../lib/run/durable/durable-run-state';
import { modelRoundInterceptor } from '../../lib/run/durable/model-round-interceptor';
import { RecordedRun } from '../../lib/run/durable/recorded-run';
import type { RunWriter } from '../../lib/run/durable/run-writer';
import { toolCallRecorder } from '../../lib/run/durable/tool-call-recorder';
import type { RunRecord } from '../../lib/run/run-record';
import { MockChatModel } from '../../lib/testing/mock-chat-model';
import { createTestScheduler } from '../support/test-scheduler';

// The durable run's interceptors in virtual time. The writer answers at once (a thenable
// that calls back synchronously), so a frame shows where a record is written.

const m: ChatChunk = { type: 'metadata', id: 'resp-1', model: 'm1' };
const a: ChatChunk = { type: 'text-delta', text: 'Hel' };
const b: ChatChunk = { type: 'text-delta', text: 'lo' };
const hello: ChatChunk = { type: 'text-delta', text: 'Hello' };
const call: ChatChunk = { type: 'tool-call', id: 'c1', name: 'pay', arguments: '{}' };
const u: ChatChunk = { type: 'usage', usage: { inputTokens: 3, outputTokens: 2, totalTokens: 5 } };
const t: ChatChunk = { type: 'finish', reason: 'tool-calls' };
const s: ChatChunk = { type: 'finish', reason: 'stop' };

const started: RunRecord = { type: 'run-started', delivered: 0, messages: [] };
const round1: RunRecord = {
  type: 'model-round',
  delivered: 0,
  round: 1,
  message: {
    role: 'assistant',
    content: 'Hello',
    toolCalls: [{ id: 'c1', name: 'pay', arguments: '{}' }],
  },
  usage: { inputTokens: 3, outputTokens: 2, totalTokens: 5 },
  finishReason: 'tool-calls',
  responseId: 'resp-1',
  model: 'm1',
};
const paid: ToolMessage = { role: 'tool', toolCallId: 'c1', name: 'pay', content: 'paid' };

/**
 * A run state over `records`, whose writer collects what it is given (held records with the
 * next append) and answers at once.
 */
function stateOf(records: RunRecord[] | undefined) {
  const written: RunRecord[] = [];
  const held: RunRecord[] = [];
  const writer = {
    hold: (record: RunRecord) => held.push(record),
    append: (...appended: RunRecord[]) => {
      written.push(...held.splice(0), ...appended);
      const now = {
        then: (done?: ((value: void) => unknown) | null) => {
          done?.(undefined);
          return now;
        },
      };
      return now;
    },
    // A synchronous journal's path: written on the spot, no Promise.
    write: (appended: RunRecord[]) => {
      written.push(...held.splice(0), ...appended);
      return undefined;
    },
  } as unknown as RunWriter;
  const recorded = records === undefined ? undefined : new RecordedRun('r1', records);
  const state = new DurableRunState(
    { owner: 'o', runId: 'r1' },
    recorded,
    writer,
    new Delivery(0),
    'approve',
    new Map(),
  );
  return { state, written };
}

const modelCall = (): ModelCall => ({
  request: ChatRequest.create({ messages: [{ role: 'user', content: 'Pay' }] }),
  model: MockChatModel.script([]),
});

describe('the durable run model-call interceptor (marbles)', () => {
  let testScheduler: TestScheduler;
  beforeEach(() => {
    testScheduler = createTestScheduler();
  });

  it('replays a recorded round in one frame, in the model order, and never subscribes to the model', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const { state, written } = stateOf([started, round1]);
      const model$ = cold<ChatChunk>('--a--b--s|', { a, b, s });
      const out$ = modelRoundInterceptor(state)(modelCall(), () => model$);
      expectObservable(out$).toBe('(mhcuf|)', { m, h: hello, c: call, u, f: t });
      expectSubscriptions(model$.subscriptions).toBe([]);
      testScheduler.flush();
      expect(written).toEqual([]);
      expect(state.completedRounds).toBe(1);
    });
  });

  it('makes the first unrecorded round live: chunks on their frames, recorded when it ends, before its tools', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const { state, written } = stateOf(undefined);
      const model$ = cold<ChatChunk>('--m--a--b--c--u--t|', { m, a, b, c: call, u, t });
      const out$ = modelRoundInterceptor(state)(modelCall(), () => model$);
      expectObservable(out$).toBe('--m--a--b--c--u--t|', { m, a, b, c: call, u, t });
      expectSubscriptions(model$.subscriptions).toBe('^-----------------!');
      testScheduler.flush();
      expect(written).toEqual([round1]);
      expect(state.completedRounds).toBe(1);
    });
  });

  it('holds a live round without tool calls for the next append (it ends the loop)', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const { state, written } = stateOf([started, round1]);
      state.completedRounds = 1;
      const model$ = cold<ChatChunk>('--a--b--s|', { a, b, s });
      const out$ = modelRoundInterceptor(state)(modelCall(), () => model$);
      expectObservable(out$).toBe('--a--b--s|', { a, b, s });
      expectSubscriptions(model$.subscriptions).toBe('^--------!');
      testScheduler.flush();
      expect(written).toEqual([]);
      void state.append({ type: 'run-ended', outcome: 'completed' });
      expect(written).toEqual([
        {
          type: 'model-round',
          delivered: 0,
          round: 2,
          message: { role: 'assistant', content: 'Hello' },
          finishReason: 'stop',
        },
        { type: 'run-ended', delivered: 0, outcome: 'completed' },
      ]);
      expect(state.completedRounds).toBe(2);
    });
  });

  it('records nothing for a round cut off by unsubscription, and the model call is torn down', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const { state, written } = stateOf(undefined);
      const model$ = cold<ChatChunk>('--a--b--s|', { a, b, s });
      const out$ = modelRoundInterceptor(state)(modelCall(), () => model$);
      expectObservable(out$, '^---!').toBe('--a-', { a });
      expectSubscriptions(model$.subscriptions).toBe('^---!');
      testScheduler.flush();
      expect(written).toEqual([]);
      expect(state.completedRounds).toBe(0);
    });
  });

  it('records nothing for a failed round, which keeps its number for the retry', () => {
    testScheduler.run(({ cold, expectObservable }) => {
      const { state, written } = stateOf(undefined);
      const error = new Error('503');
      const out$ = modelRoundInterceptor(state)(modelCall(), () =>
        cold<ChatChunk>('--a--#', { a }, error),
      );
      expectObservable(out$).toBe('--a--#', { a }, error);
      testScheduler.flush();
      expect(written).toEqual([]);
      expect(state.completedRounds).toBe(0);
    });
  });
});

describe('the durable run tool-call interceptor (marbles)', () => {
  let testScheduler: TestScheduler;
  beforeEach(() => {
    testScheduler = createTestScheduler();
  });

  const invocation = (idempotent: boolean): ToolCallInvocation => ({
    call: { id: 'c1', name: 'pay', arguments: '{}' },
    tool: { name: 'pay', idempotent } as ToolCallInvocation['tool'],
    round: 1,
    values: {},
    context: new Map(),
  });

  it('answers a recorded outcome at once without running the tool', () => {
    const outcome: RunRecord = { type: 'tool-outcome', delivered: 0, round: 1, message: paid };
    const { state } = stateOf([started, round1, outcome]);
    state.completedRounds = 1;
    const answer = toolCallRecorder(state).intercept?.(invocation(false), () => {
      throw new Error('the tool ran');
    });
    expect(answer).toEqual(paid);
  });

  it('writes tool-call-started before a tool that is not idempotent runs, and the outcome before the loop sees it', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const { state, written } = stateOf(undefined);
      state.completedRounds = 1;
      const tool$ = cold<ToolCallEvent>('---r|', { r: paid });
      const answer = toolCallRecorder(state).intercept?.(invocation(false), () => tool$);
      if (!isObservable(answer)) throw new Error('expected an Observable');
      expectObservable(answer).toBe('---r|', { r: paid });
      expectSubscriptions(tool$.subscriptions).toBe('^---!');
      testScheduler.flush();
      expect(written.map((r) => r.type)).toEqual(['tool-call-started', 'tool-outcome']);
    });
  });

  it('writes no tool-call-started for an idempotent tool, and its outcome with the next append', () => {
    testScheduler.run(({ cold, expectObservable }) => {
      const { state, written } = stateOf(undefined);
      state.completedRounds = 1;
      const answer = toolCallRecorder(state).intercept?.(invocation(true), () =>
        cold<ToolCallEvent>('-r|', { r: paid }),
      );
      // The loop sees the outcome at once: nothing waits for the journal.
      expectObservable(answer as Observable<ToolCallEvent>).toBe('-r|', { r: paid });
      testScheduler.flush();
      expect(written).toEqual([]);
      void state.append({ type: 'run-ended', outcome: 'completed', usage: u.usage });
      expect(written.map((r) => r.type)).toEqual(['tool-outcome', 'run-ended']);
    });
  });
});

describe("a resumed run's delivery (marbles)", () => {
  let testScheduler: TestScheduler;
  beforeEach(() => {
    testScheduler = createTestScheduler();
  });

  it('skips what was delivered in units, so a replayed text cut differently resumes mid-delta', () => {
    testScheduler.run(({ cold, expectObservable }) => {
      // Delivered before: "Hel" of a live round (3 units). The replay sends "Hello" at once.
      const delivery = new Delivery(3);
      const replayed$ = cold<ChatChunk>('(hms)|', { h: hello, m, s });
      const out$ = replayed$.pipe(
        map((chunk) => delivery.pass(chunk)),
        filter((chunk): chunk is ChatChunk => chunk !== undefined),
      );
      // "lo", the metadata (no units: it sits past the cut) and the finish.
      expectObservable(out$).toBe('(lms)|', { l: b, m, s });
    });
  });
});
