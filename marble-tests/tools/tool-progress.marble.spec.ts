import { NEVER, type Observable } from 'rxjs';
import { type TestScheduler } from 'rxjs/testing';
import { createAdvisorChain } from '../../lib/advisor-api/advisor-chain.js';
import type { ChatChunk } from '../../lib/core/chat-chunk';
import type { ChatModel } from '../../lib/core/chat-model';
import { ChatRequest } from '../../lib/core/chat-request';
import type { ToolMessage } from '../../lib/core/message';
import type { Tool } from '../../lib/core/tool.js';
import { MockChatModel } from '../../lib/testing/mock-chat-model';
import { executeToolCalls } from '../../lib/tools/execute-tool-calls';
import { ToolCallingAdvisor } from '../../lib/tools/tool-calling-advisor';
import type { ToolCallingAdvisorOptions } from '../../lib/tools/tool-calling-advisor-options';
import { tool } from '../../lib/tools/tool-fn';
import { createTestScheduler } from '../support/test-scheduler';

// Issue 20, point 6: an Observable tool's values reach the client as preliminary results
// (emitToolEvents), the model sees only the last one; the tool input goes out as typed.

const text = (t: string): ChatChunk => ({ type: 'text-delta', text: t });
const call = (id: string, name: string, args = '{}'): ChatChunk => ({
  type: 'tool-call',
  id,
  name,
  arguments: args,
});
const finish = (reason: 'stop' | 'tool-calls'): ChatChunk => ({ type: 'finish', reason });
const roundStart = (round: number): ChatChunk => ({ type: 'round-start', round });
const roundEnd = (round: number, finishReason: 'stop' | 'tool-calls'): ChatChunk => ({
  type: 'round-end',
  round,
  finishReason,
});
const meta = (rounds: number): ChatChunk => ({ type: 'metadata', rounds });
const total: ChatChunk = {
  type: 'usage',
  usage: { inputTokens: undefined, outputTokens: undefined, totalTokens: undefined },
};
const progress = (id: string, name: string, content: string): ChatChunk => ({
  type: 'tool-result',
  id,
  name,
  content,
  preliminary: true,
});
const result = (id: string, name: string, content: string, isError?: true): ChatChunk => ({
  type: 'tool-result',
  id,
  name,
  content,
  ...(isError === undefined ? {} : { isError }),
});

/** A tool whose execute returns `output$`; records the signals it received. */
function streamTool(
  name: string,
  output$: Observable<string>,
  extra: { timeout?: number; resultConverter?: (value: string) => string } = {},
): { tool: Tool; signals: AbortSignal[] } {
  const signals: AbortSignal[] = [];
  const t = tool({
    name,
    description: name,
    parameters: {},
    execute: (_args, context) => {
      signals.push(context.signal);
      return output$;
    },
    ...extra,
  });
  return { tool: t, signals };
}

function loop$(
  model: ChatModel,
  tools: Tool[],
  options: ToolCallingAdvisorOptions = {},
): Observable<ChatChunk> {
  const chain = createAdvisorChain({ advisors: [new ToolCallingAdvisor(options)], model });
  return chain.next(ChatRequest.create({ messages: [{ role: 'user', content: 'Hi' }], tools }));
}

const toolResultsSent = (model: MockChatModel, round: number): ToolMessage[] =>
  model.requests[round - 1].messages.filter((m): m is ToolMessage => m.role === 'tool');

describe('tool progress and streamed tool input (marble)', () => {
  let testScheduler: TestScheduler;

  beforeEach(() => {
    testScheduler = createTestScheduler();
  });

  it('sends each value of an Observable tool as it comes, then the result, then the next round', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const round1 = cold('-(cf|)', { c: call('c1', 'search'), f: finish('tool-calls') });
      const search$ = cold('    ----a--b--c|', { a: '1 of 3', b: '2 of 3', c: '3 hits' });
      const round2 = cold('                ----(xf|)', { x: text('Found 3.'), f: finish('stop') });
      const search = streamTool('search', search$);
      const model = MockChatModel.fromStreams([round1, round2]);
      expectObservable(loop$(model, [search.tool], { emitToolEvents: true })).toBe(
        's(ce)a--b--z(rt)(xomuf|)',
        {
          s: roundStart(1),
          c: call('c1', 'search'),
          e: roundEnd(1, 'tool-calls'),
          a: progress('c1', 'search', '1 of 3'),
          b: progress('c1', 'search', '2 of 3'),
          z: progress('c1', 'search', '3 hits'),
          r: result('c1', 'search', '3 hits'),
          t: roundStart(2),
          x: text('Found 3.'),
          o: roundEnd(2, 'stop'),
          m: meta(2),
          u: total,
          f: finish('stop'),
        },
      );
      expectSubscriptions(search$.subscriptions).toBe('-^----------!');
      expectSubscriptions(round2.subscriptions).toBe('------------^---!');
      testScheduler.flush();
      // The model sees the last value only.
      expect(toolResultsSent(model, 2)).toEqual([
        { role: 'tool', toolCallId: 'c1', name: 'search', content: '3 hits' },
      ]);
    });
  });

  it('without emitToolEvents sends no progress; the model still gets the last value', () => {
    testScheduler.run(({ cold, expectObservable }) => {
      const round1 = cold('-(cf|)', { c: call('c1', 'search'), f: finish('tool-calls') });
      const search$ = cold('      -a--b|', { a: 'half', b: 'done' });
      const round2 = cold('           -(xf|)', { x: text('Done.'), f: finish('stop') });
      const model = MockChatModel.fromStreams([round1, round2]);
      expectObservable(loop$(model, [streamTool('search', search$).tool])).toBe('-------(xmuf|)', {
        x: text('Done.'),
        m: meta(2),
        u: total,
        f: finish('stop'),
      });
      testScheduler.flush();
      expect(toolResultsSent(model, 2).map((m) => m.content)).toEqual(['done']);
    });
  });

  it('converts progress like the result (resultConverter)', () => {
    testScheduler.run(({ cold, expectObservable }) => {
      const round1 = cold('-(cf|)', { c: call('c1', 'count'), f: finish('tool-calls') });
      const count$ = cold('    ----a|', { a: 'x' });
      const round2 = cold('          ----(f|)', { f: finish('stop') });
      const counter = streamTool('count', count$, { resultConverter: (v) => `<${v}>` });
      const model = MockChatModel.fromStreams([round1, round2]);
      expectObservable(loop$(model, [counter.tool], { emitToolEvents: true })).toBe(
        's(ce)p(rt)(omuf|)',
        {
          s: roundStart(1),
          c: call('c1', 'count'),
          e: roundEnd(1, 'tool-calls'),
          p: progress('c1', 'count', '<x>'),
          r: result('c1', 'count', '<x>'),
          t: roundStart(2),
          o: roundEnd(2, 'stop'),
          m: meta(2),
          u: total,
          f: finish('stop'),
        },
      );
    });
  });

  it('keeps the progress sent before a failure, then sends the error result', () => {
    testScheduler.run(({ cold, expectObservable }) => {
      const round1 = cold('-(cf|)', { c: call('c1', 'flaky'), f: finish('tool-calls') });
      const flaky$ = cold<string>('----a-#', { a: 'started' }, new Error('disk full'));
      const round2 = cold('                   ----(f|)', { f: finish('stop') });
      const model = MockChatModel.fromStreams([round1, round2]);
      expectObservable(
        loop$(model, [streamTool('flaky', flaky$).tool], { emitToolEvents: true }),
      ).toBe('s(ce)a-(rt)(omuf|)', {
        s: roundStart(1),
        c: call('c1', 'flaky'),
        e: roundEnd(1, 'tool-calls'),
        a: progress('c1', 'flaky', 'started'),
        r: result('c1', 'flaky', 'The tool "flaky" failed: disk full', true),
        t: roundStart(2),
        o: roundEnd(2, 'stop'),
        m: meta(2),
        u: total,
        f: finish('stop'),
      });
    });
  });

  it('holds the time limit over the whole run, however many values came before it', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const round1 = cold('-(cf|)', { c: call('c1', 'slow'), f: finish('tool-calls') });
      const slow$ = cold('    ----a-b---c|', { a: '1', b: '2', c: '3' });
      const round2 = cold('            ----(f|)', { f: finish('stop') });
      const slow = streamTool('slow', slow$, { timeout: 8 });
      const model = MockChatModel.fromStreams([round1, round2]);
      expectObservable(loop$(model, [slow.tool], { emitToolEvents: true })).toBe(
        's(ce)a-b-(rt)(omuf|)',
        {
          s: roundStart(1),
          c: call('c1', 'slow'),
          e: roundEnd(1, 'tool-calls'),
          a: progress('c1', 'slow', '1'),
          b: progress('c1', 'slow', '2'),
          r: result(
            'c1',
            'slow',
            'The tool "slow" did not finish within 8 ms and was cancelled. Try again later or answer without it.',
            true,
          ),
          t: roundStart(2),
          o: roundEnd(2, 'stop'),
          m: meta(2),
          u: total,
          f: finish('stop'),
        },
      );
      expectSubscriptions(slow$.subscriptions).toBe('-^-------!');
      testScheduler.flush();
      expect(slow.signals.map((s) => s.aborted)).toEqual([true]);
    });
  });

  it('stops an Observable tool when unsubscribed while it emits, and aborts its signal', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const round1 = cold('-(cf|)', { c: call('c1', 'watch'), f: finish('tool-calls') });
      const watch$ = cold('    ----a-b-c-d|', { a: '1', b: '2', c: '3', d: '4' });
      const model = MockChatModel.fromStreams([round1]);
      const watch = streamTool('watch', watch$);
      expectObservable(loop$(model, [watch.tool], { emitToolEvents: true }), '^-----!').toBe(
        's(ce)a',
        {
          s: roundStart(1),
          c: call('c1', 'watch'),
          e: roundEnd(1, 'tool-calls'),
          a: progress('c1', 'watch', '1'),
        },
      );
      expectSubscriptions(watch$.subscriptions).toBe('-^----!');
      testScheduler.flush();
      expect(watch.signals.map((s) => s.aborted)).toEqual([true]);
      expect(model.requests).toHaveLength(1);
    });
  });

  it('gives a second subscription its own progress (no shared state)', () => {
    testScheduler.run(({ cold, expectObservable }) => {
      const round1 = cold('-(cf|)', { c: call('c1', 'search'), f: finish('tool-calls') });
      const search$ = cold('    ----a|', { a: 'hit' });
      const round2 = cold('          ----(f|)', { f: finish('stop') });
      const model = MockChatModel.fromStreams([round1, round2, round1, round2]);
      const loop = loop$(model, [streamTool('search', search$).tool], { emitToolEvents: true });
      const expected = {
        s: roundStart(1),
        c: call('c1', 'search'),
        e: roundEnd(1, 'tool-calls'),
        p: progress('c1', 'search', 'hit'),
        r: result('c1', 'search', 'hit'),
        t: roundStart(2),
        o: roundEnd(2, 'stop'),
        m: meta(2),
        u: total,
        f: finish('stop'),
      };
      const later = '-'.repeat(20);
      expectObservable(loop).toBe('s(ce)p(rt)(omuf|)', expected);
      // Subscribed once the first loop is over, so the model's script runs in order.
      expectObservable(loop, `${later}^`).toBe(`${later}s(ce)p(rt)(omuf|)`, expected);
    });
  });

  it('executeToolCalls (the manual loop) emits only the results, the last value of each', () => {
    testScheduler.run(({ cold, expectObservable }) => {
      const search$ = cold('-a-b|', { a: 'half', b: 'done' });
      const results$ = executeToolCalls({
        toolCalls: [{ id: 'c1', name: 'search', arguments: '{}' }],
        tools: [streamTool('search', search$).tool],
      });
      expectObservable(results$).toBe('----(r|)', {
        r: [{ role: 'tool', toolCallId: 'c1', name: 'search', content: 'done' }],
      });
    });
  });

  describe('tool input as it is typed', () => {
    const delta = (index: number, argumentsDelta: string, id?: string): ChatChunk => ({
      type: 'tool-call-delta',
      index,
      ...(id === undefined ? {} : { id, name: 'getTime' }),
      argumentsDelta,
    });

    it('forwards the deltas on their own frames before the call (emitToolEvents)', () => {
      testScheduler.run(({ cold, expectObservable }) => {
        const round1 = cold('-a-b-c-(kf|)', {
          a: delta(0, '{"ci', 'c1'),
          b: delta(0, 'ty":"Pa'),
          c: delta(0, 'ris"}'),
          k: call('c1', 'getTime', '{"city":"Paris"}'),
          f: finish('tool-calls'),
        });
        const round2 = cold('            (xf|)', { x: text('Noon.'), f: finish('stop') });
        const getTime = tool({
          name: 'getTime',
          description: 'time',
          parameters: { type: 'object', properties: { city: { type: 'string' } } },
          execute: () => '12:00',
        });
        const model = MockChatModel.fromStreams([round1, round2]);
        expectObservable(loop$(model, [getTime], { emitToolEvents: true })).toBe(
          'sa-b-c-(kertyomuf|)',
          {
            s: roundStart(1),
            a: delta(0, '{"ci', 'c1'),
            b: delta(0, 'ty":"Pa'),
            c: delta(0, 'ris"}'),
            k: call('c1', 'getTime', '{"city":"Paris"}'),
            e: roundEnd(1, 'tool-calls'),
            r: result('c1', 'getTime', '12:00'),
            t: roundStart(2),
            y: text('Noon.'),
            o: roundEnd(2, 'stop'),
            m: meta(2),
            u: total,
            f: finish('stop'),
          },
        );
      });
    });

    it('forwards no deltas without emitToolEvents', () => {
      testScheduler.run(({ cold, expectObservable }) => {
        const round1 = cold('-a-(kf|)', {
          a: delta(0, '{}', 'c1'),
          k: call('c1', 'getTime'),
          f: finish('tool-calls'),
        });
        const round2 = cold('    (xf|)', { x: text('Noon.'), f: finish('stop') });
        const getTime = tool({
          name: 'getTime',
          description: 'time',
          parameters: {},
          execute: () => '12:00',
        });
        expectObservable(loop$(MockChatModel.fromStreams([round1, round2]), [getTime])).toBe(
          '---(xmuf|)',
          { x: text('Noon.'), m: meta(2), u: total, f: finish('stop') },
        );
      });
    });

    it('holds back the deltas of a call under an id the round already used', () => {
      testScheduler.run(({ cold, expectObservable }) => {
        const round1 = cold('-ab-(klf|)', {
          a: delta(0, '{}', 'dup'),
          b: delta(1, '{}', 'dup'),
          k: call('dup', 'getTime'),
          l: call('dup', 'getTime'),
          f: finish('tool-calls'),
        });
        const round2 = cold('     (f|)', { f: finish('stop') });
        const getTime = tool({
          name: 'getTime',
          description: 'time',
          parameters: {},
          execute: () => '12:00',
        });
        const model = MockChatModel.fromStreams([round1, round2]);
        expectObservable(loop$(model, [getTime], { emitToolEvents: true })).toBe(
          'sa--(kLerRtomuf|)',
          {
            s: roundStart(1),
            a: delta(0, '{}', 'dup'),
            k: call('dup', 'getTime'),
            L: call('dup_2', 'getTime'),
            e: roundEnd(1, 'tool-calls'),
            r: result('dup', 'getTime', '12:00'),
            R: result('dup_2', 'getTime', '12:00'),
            t: roundStart(2),
            o: roundEnd(2, 'stop'),
            m: meta(2),
            u: total,
            f: finish('stop'),
          },
        );
      });
    });
  });

  it('leaves a tool that never emits running until the limit (NEVER), with no progress', () => {
    testScheduler.run(({ cold, expectObservable }) => {
      const round1 = cold('-(cf|)', { c: call('c1', 'hang'), f: finish('tool-calls') });
      const round2 = cold('      ----(f|)', { f: finish('stop') });
      const hang = streamTool('hang', NEVER, { timeout: 5 });
      const model = MockChatModel.fromStreams([round1, round2]);
      expectObservable(loop$(model, [hang.tool], { emitToolEvents: true })).toBe(
        's(ce)-(rt)(omuf|)',
        {
          s: roundStart(1),
          c: call('c1', 'hang'),
          e: roundEnd(1, 'tool-calls'),
          r: result(
            'c1',
            'hang',
            'The tool "hang" did not finish within 5 ms and was cancelled. Try again later or answer without it.',
            true,
          ),
          t: roundStart(2),
          o: roundEnd(2, 'stop'),
          m: meta(2),
          u: total,
          f: finish('stop'),
        },
      );
    });
  });
});
