import {
  concat,
  defer,
  ignoreElements,
  isObservable,
  of,
  takeWhile,
  timer,
  type Observable,
} from 'rxjs';
import { type TestScheduler } from 'rxjs/testing';
import { advisor } from '../../lib/advisor-api/advisor';
import { createAdvisorChain } from '../../lib/advisor-api/advisor-chain';
import { CallInterceptors } from '../../lib/advisor-api/call-interceptors';
import { Order } from '../../lib/advisor-api/order';
import type { ToolCallEvent, ToolCallOutcome } from '../../lib/advisor-api/tool-call-interceptor';
import type { ChatChunk } from '../../lib/core/chat-chunk';
import { ChatRequest } from '../../lib/core/chat-request';
import type { Tool } from '../../lib/core/tool';
import { MockChatModel } from '../../lib/testing/mock-chat-model';
import { ToolCallingAdvisor } from '../../lib/tools/tool-calling-advisor';
import { tool } from '../../lib/tools/tool-fn';
import { createTestScheduler } from '../support/test-scheduler';

const a: ChatChunk = { type: 'text-delta', text: 'a' };
const b: ChatChunk = { type: 'text-delta', text: 'b' };
const c: ChatChunk = { type: 'text-delta', text: 'c' };
const stop: ChatChunk = { type: 'finish', reason: 'stop' };
const call: ChatChunk = { type: 'tool-call', id: 'c1', name: 'pay', arguments: '{}' };
const askTools: ChatChunk = { type: 'finish', reason: 'tool-calls' };
const meta: ChatChunk = { type: 'metadata', rounds: 2 };
const total: ChatChunk = {
  type: 'usage',
  usage: { inputTokens: undefined, outputTokens: undefined, totalTokens: undefined },
};

/** An advisor outside the loop that registers its interceptors from `advise`. */
function registering(register: (interceptors: CallInterceptors) => void) {
  return advisor({
    name: 'registers',
    order: Order.HIGHEST_PRECEDENCE,
    before: (request) => {
      register(CallInterceptors.of(request.context));
      return request;
    },
  });
}

function run$(model: MockChatModel, tools: Tool[], register: (i: CallInterceptors) => void) {
  const chain = createAdvisorChain({
    advisors: [registering(register), new ToolCallingAdvisor()],
    model,
  });
  return chain.next(ChatRequest.create({ messages: [{ role: 'user', content: 'Hi' }], tools }));
}

/** A tool that counts its runs. */
function payTool(runs: { count: number }): Tool {
  return tool({
    name: 'pay',
    description: 'Pays',
    parameters: {},
    execute: () => {
      runs.count++;
      return 'paid';
    },
  });
}

describe('call interceptors (marble)', () => {
  let testScheduler: TestScheduler;

  beforeEach(() => {
    testScheduler = createTestScheduler();
  });

  it('a model-call interceptor that cuts a round off unsubscribes from the model at that frame', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const round = cold('-a-b-c-(f|)', { a, b, c, f: stop });
      const model = MockChatModel.fromStreams([round]);
      const cut = (chunk: ChatChunk) => !(chunk.type === 'text-delta' && chunk.text === 'c');
      const out$ = createAdvisorChain({
        advisors: [
          registering((interceptors) =>
            interceptors.onModelCall('budget', (modelCall, proceed) =>
              proceed(modelCall.request).pipe(takeWhile(cut)),
            ),
          ),
        ],
        model,
      }).next(ChatRequest.create());
      expectObservable(out$).toBe('-a-b-|', { a, b });
      expectSubscriptions(round.subscriptions).toBe('^----!');
    });
  });

  it('a tool-call interceptor that waits (a write-ahead record) delays the tool, and round 2 follows it', () => {
    testScheduler.run(({ cold, expectObservable }) => {
      const runs = { count: 0 };
      const round1 = cold('-(cf|)', { c: call, f: askTools });
      const round2 = cold('-(af|)', { a, f: stop });
      const model = MockChatModel.fromStreams([round1, round2]);
      const out$ = run$(model, [payTool(runs)], (interceptors) =>
        interceptors.onToolCall('journal', {
          intercept: (invocation, proceed) =>
            concat(
              timer(3).pipe(ignoreElements()),
              defer(() => toObservable(proceed(invocation.call))),
            ),
        }),
      );
      // Round 1 ends at frame 1; the record takes 3 frames; round 2 answers one frame later.
      expectObservable(out$).toBe('-----(amuf|)', { a, m: meta, u: total, f: stop });
      testScheduler.flush();
      expect(runs.count).toBe(1);
    });
  });

  it('unsubscribing while a tool-call interceptor waits means the tool never runs', () => {
    testScheduler.run(({ cold, expectObservable }) => {
      const runs = { count: 0 };
      const round1 = cold('-(cf|)', { c: call, f: askTools });
      const model = MockChatModel.fromStreams([round1]);
      const out$ = run$(model, [payTool(runs)], (interceptors) =>
        interceptors.onToolCall('journal', {
          intercept: (invocation, proceed) =>
            concat(
              timer(3).pipe(ignoreElements()),
              defer(() => toObservable(proceed(invocation.call))),
            ),
        }),
      );
      expectObservable(out$, '^-!').toBe('--');
      testScheduler.flush();
      expect(runs.count).toBe(0);
      expect(model.requests).toHaveLength(1);
    });
  });
});

/** A tool-call outcome as an Observable. */
function toObservable(outcome: ToolCallOutcome): Observable<ToolCallEvent> {
  return isObservable(outcome) ? outcome : of(outcome);
}
