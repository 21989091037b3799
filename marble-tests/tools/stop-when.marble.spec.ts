import type { Observable } from 'rxjs';
import { type TestScheduler } from 'rxjs/testing';
import { createAdvisorChain } from '../../lib/advisor-api/advisor-chain.js';
import type { ChatChunk } from '../../lib/core/chat-chunk.js';
import { ChatRequest } from '../../lib/core/chat-request.js';
import type { ChatModel } from '../../lib/core/chat-model.js';
import type { LoopStopReason } from '../../lib/core/loop-stop-reason.js';
import type { Tool } from '../../lib/core/tool.js';
import { InvalidOptionsError } from '../../lib/errors/invalid-options-error.js';
import { LoopHookError } from '../../lib/errors/loop-hook-error.js';
import { MockChatModel } from '../../lib/testing/mock-chat-model.js';
import {
  hasToolCall,
  roundCountIs,
  stepCountIs,
  stopCondition,
  usageAbove,
  type StopCondition,
} from '../../lib/tools/stop-conditions.js';
import { ToolCallingAdvisor } from '../../lib/tools/tool-calling-advisor.js';
import type { ToolCallingAdvisorOptions } from '../../lib/tools/tool-calling-advisor-options.js';
import { tool } from '../../lib/tools/tool-fn.js';
import { createTestScheduler } from '../support/test-scheduler';

const text = (t: string): ChatChunk => ({ type: 'text-delta', text: t });
const call = (id: string, name: string): ChatChunk => ({
  type: 'tool-call',
  id,
  name,
  arguments: '{}',
});
const usage = (inputTokens: number, outputTokens: number): ChatChunk => ({
  type: 'usage',
  usage: { inputTokens, outputTokens, totalTokens: inputTokens + outputTokens },
});
const finish = (reason: 'stop' | 'tool-calls'): ChatChunk => ({ type: 'finish', reason });
const meta = (rounds: number, stopReason?: LoopStopReason): ChatChunk =>
  stopReason === undefined
    ? { type: 'metadata', rounds }
    : { type: 'metadata', rounds, stopReason };
const total = (inputTokens: number, outputTokens: number): ChatChunk => ({
  type: 'usage',
  usage: { inputTokens, outputTokens, totalTokens: inputTokens + outputTokens },
});

function makeTools(ran: string[]): Tool[] {
  return ['search', 'answer'].map((name) =>
    tool({
      name,
      description: name,
      parameters: {},
      execute: () => {
        ran.push(name);
        return `${name} done`;
      },
    }),
  );
}

function loop$(
  model: ChatModel,
  tools: Tool[],
  options: ToolCallingAdvisorOptions,
): Observable<ChatChunk> {
  const chain = createAdvisorChain({ advisors: [new ToolCallingAdvisor(options)], model });
  return chain.next(ChatRequest.create({ messages: [{ role: 'user', content: 'Hi' }], tools }));
}

describe('ToolCallingAdvisor stopWhen (marble)', () => {
  let testScheduler: TestScheduler;

  beforeEach(() => {
    testScheduler = createTestScheduler();
  });

  it('stops after the round whose tools ran when stepCountIs holds; no further model call', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const round1 = cold('-a-(cuf|)', {
        a: text('Looking. '),
        c: call('c1', 'search'),
        u: usage(10, 5),
        f: finish('tool-calls'),
      });
      const round2 = cold('-x(f|)', { x: text('never'), f: finish('stop') });
      const ran: string[] = [];
      const model = MockChatModel.fromStreams([round1, round2]);
      expectObservable(loop$(model, makeTools(ran), { stopWhen: stepCountIs(1) })).toBe(
        '-a-(muf|)',
        {
          a: text('Looking. '),
          m: meta(1, { type: 'stop-condition', condition: 'stepCountIs(1)', round: 1 }),
          u: total(10, 5),
          f: finish('tool-calls'),
        },
      );
      expectSubscriptions(round1.subscriptions).toBe('^--!');
      expectSubscriptions(round2.subscriptions).toBe([]);
      testScheduler.flush();
      expect(ran).toEqual(['search']);
    });
  });

  it('takes any of an array: hasToolCall holds in round 2 while stepCountIs(5) does not', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const round1 = cold('-(cf|)', { c: call('c1', 'search'), f: finish('tool-calls') });
      const round2 = cold('  -(cf|)', { c: call('c2', 'answer'), f: finish('tool-calls') });
      const round3 = cold('-x(f|)', { x: text('never'), f: finish('stop') });
      const ran: string[] = [];
      const model = MockChatModel.fromStreams([round1, round2, round3]);
      const stopWhen = [stepCountIs(5), hasToolCall('answer')];
      expectObservable(loop$(model, makeTools(ran), { stopWhen })).toBe('--(muf|)', {
        m: meta(2, { type: 'stop-condition', condition: 'hasToolCall("answer")', round: 2 }),
        u: {
          type: 'usage',
          usage: { inputTokens: undefined, outputTokens: undefined, totalTokens: undefined },
        },
        f: finish('tool-calls'),
      });
      expectSubscriptions(round2.subscriptions).toBe('-^!');
      expectSubscriptions(round3.subscriptions).toBe([]);
      testScheduler.flush();
      expect(ran).toEqual(['search', 'answer']);
    });
  });

  it('usageAbove stops once the run total crosses the limit, not before', () => {
    testScheduler.run(({ cold, expectObservable }) => {
      const round1 = cold('-(cuf|)', {
        c: call('c1', 'search'),
        u: usage(40, 10),
        f: finish('tool-calls'),
      });
      const round2 = cold('  -(cuf|)', {
        c: call('c2', 'search'),
        u: usage(60, 10),
        f: finish('tool-calls'),
      });
      const model = MockChatModel.fromStreams([round1, round2]);
      expectObservable(
        loop$(model, makeTools([]), { stopWhen: usageAbove({ totalTokens: 100 }) }),
      ).toBe('--(muf|)', {
        m: meta(2, {
          type: 'stop-condition',
          condition: 'usageAbove({"totalTokens":100})',
          round: 2,
        }),
        u: total(100, 20),
        f: finish('tool-calls'),
      });
    });
  });

  it('leaves a run alone when no condition holds', () => {
    testScheduler.run(({ cold, expectObservable }) => {
      const round1 = cold('-(cf|)', { c: call('c1', 'search'), f: finish('tool-calls') });
      const round2 = cold('  -x(f|)', { x: text('Done.'), f: finish('stop') });
      const model = MockChatModel.fromStreams([round1, round2]);
      const never: StopCondition = function neverStops() {
        return false;
      };
      expectObservable(loop$(model, makeTools([]), { stopWhen: [never, roundCountIs(3)] })).toBe(
        '--x(muf|)',
        {
          x: text('Done.'),
          m: meta(2),
          u: {
            type: 'usage',
            usage: { inputTokens: undefined, outputTokens: undefined, totalTokens: undefined },
          },
          f: finish('stop'),
        },
      );
    });
  });

  it('names a custom predicate by its function name in the stop reason', () => {
    const model = MockChatModel.script([
      { toolCalls: [{ name: 'search', arguments: {} }] },
      { text: 'never' },
    ]);
    const afterOneSearch: StopCondition = function afterOneSearch({ state }) {
      return state.toolCallCounts.get('search') === 1;
    };
    const seen: ChatChunk[] = [];
    loop$(model, makeTools([]), { stopWhen: afterOneSearch }).subscribe((c) => seen.push(c));
    expect(seen.find((c) => c.type === 'metadata')).toMatchObject({
      stopReason: { type: 'stop-condition', condition: 'afterOneSearch', round: 1 },
    });
    expect(model.requests).toHaveLength(1);
  });

  it("sends the text held under preamble 'drop' when a condition stops the loop at that round", () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const round1 = cold('-a-(cuf|)', {
        a: text('Here is the answer.'),
        c: call('c1', 'answer'),
        u: usage(10, 5),
        f: finish('tool-calls'),
      });
      const round2 = cold('-x(f|)', { x: text('never'), f: finish('stop') });
      const ran: string[] = [];
      const model = MockChatModel.fromStreams([round1, round2]);
      const options = { stopWhen: hasToolCall('answer'), preamble: 'drop' as const };
      // Held at frame 1; the stopped round is the last one, so its text goes out at its end.
      expectObservable(loop$(model, makeTools(ran), options)).toBe('---(amuf|)', {
        a: text('Here is the answer.'),
        m: meta(1, { type: 'stop-condition', condition: 'hasToolCall("answer")', round: 1 }),
        u: total(10, 5),
        f: finish('tool-calls'),
      });
      expectSubscriptions(round2.subscriptions).toBe([]);
    });
  });

  it('fails with a LoopHookError naming stopWhen when a condition throws', () => {
    testScheduler.run(({ cold, expectObservable }) => {
      const round1 = cold('-(cf|)', { c: call('c1', 'search'), f: finish('tool-calls') });
      const model = MockChatModel.fromStreams([round1]);
      const boom = stopCondition('boom', () => {
        throw new Error('kaput');
      });
      const error = new LoopHookError({ hook: 'stopWhen', round: 1, cause: new Error('kaput') });
      expectObservable(loop$(model, makeTools([]), { stopWhen: boom })).toBe('-#', {}, error);
    });
  });

  it('refuses a condition that returns a non-boolean, saying what was expected', () => {
    const round1 = MockChatModel.script([{ toolCalls: [{ name: 'search', arguments: {} }] }]);
    const sloppy = (() => 'yes') as unknown as StopCondition;
    let caught: unknown;
    loop$(round1, makeTools([]), { stopWhen: sloppy }).subscribe({
      error: (e: unknown) => {
        caught = e;
      },
    });
    expect(LoopHookError.isInstance(caught)).toBe(true);
    expect(caught).toMatchObject({ hook: 'stopWhen', round: 1, failure: 'invalid-return' });
    expect((caught as Error).message).toContain('expected a boolean');
  });

  it('starts clean on re-subscription (the round count is per subscription)', () => {
    testScheduler.run(({ cold, expectObservable }) => {
      const round = cold('-(cf|)', { c: call('c1', 'search'), f: finish('tool-calls') });
      const model = MockChatModel.fromStreams([round, round]);
      const chain = createAdvisorChain({
        advisors: [new ToolCallingAdvisor({ stopWhen: stepCountIs(1) })],
        model,
      });
      const request = ChatRequest.create({
        messages: [{ role: 'user', content: 'Hi' }],
        tools: makeTools([]),
      });
      const values = {
        m: meta(1, { type: 'stop-condition', condition: 'stepCountIs(1)', round: 1 }),
        u: {
          type: 'usage',
          usage: { inputTokens: undefined, outputTokens: undefined, totalTokens: undefined },
        },
        f: finish('tool-calls'),
      } as const;
      expectObservable(chain.next(request)).toBe('-(muf|)', values);
      expectObservable(chain.next(request)).toBe('-(muf|)', values);
    });
  });

  it('rejects bad options and bad helper arguments with InvalidOptionsError', () => {
    const bad = { stopWhen: 3 } as unknown as ToolCallingAdvisorOptions;
    expect(() => new ToolCallingAdvisor(bad)).toThrow(InvalidOptionsError);
    expect(() => new ToolCallingAdvisor(bad)).toThrow(/stopWhen/);
    expect(() => stepCountIs(0)).toThrow(InvalidOptionsError);
    expect(() => roundCountIs(1.5)).toThrow(InvalidOptionsError);
    expect(() => hasToolCall()).toThrow(/one or more non-empty tool names/);
    expect(() => usageAbove({})).toThrow(/at least one of/);
    expect(() => usageAbove({ totalTokens: -1 })).toThrow(InvalidOptionsError);
    expect(() => stopCondition('', () => true)).toThrow(InvalidOptionsError);
  });
});
