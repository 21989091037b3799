import { NEVER, tap, type Observable } from 'rxjs';
import { type TestScheduler } from 'rxjs/testing';
import { advisor } from '../../lib/advisor-api/advisor.js';
import { createAdvisorChain } from '../../lib/advisor-api/advisor-chain.js';
import { Order } from '../../lib/advisor-api/order.js';
import type { Advisor } from '../../lib/advisor-api/advisor.js';
import type { ChatChunk } from '../../lib/core/chat-chunk';
import { ChatRequest } from '../../lib/core/chat-request';
import type { ChatModel } from '../../lib/core/chat-model';
import type { ToolMessage } from '../../lib/core/message';
import type { Usage } from '../../lib/core/usage';
import { MockChatModel } from '../../lib/testing/mock-chat-model';
import type { Tool } from '../../lib/core/tool.js';
import { ToolCallingAdvisor } from '../../lib/tools/tool-calling-advisor';
import type { ToolCallingAdvisorOptions } from '../../lib/tools/tool-calling-advisor-options';
import { tool } from '../../lib/tools/tool-fn';
import { createTestScheduler } from '../support/test-scheduler';

const text = (t: string): ChatChunk => ({ type: 'text-delta', text: t });
const call = (id: string, name: string, args = '{}'): ChatChunk => ({
  type: 'tool-call',
  id,
  name,
  arguments: args,
});
const delta = (id: string, name: string): ChatChunk => ({
  type: 'tool-call-delta',
  index: 0,
  id,
  name,
  argumentsDelta: '{}',
});
const usage = (inputTokens: number, outputTokens: number): ChatChunk => ({
  type: 'usage',
  usage: { inputTokens, outputTokens, totalTokens: inputTokens + outputTokens },
});
const finish = (reason: 'stop' | 'tool-calls' | 'return-direct'): ChatChunk => ({
  type: 'finish',
  reason,
});
const meta = (rounds: number): ChatChunk => ({ type: 'metadata', rounds });
const total = (u: Partial<Usage> = {}): ChatChunk => ({
  type: 'usage',
  usage: { inputTokens: undefined, outputTokens: undefined, totalTokens: undefined, ...u },
});

/** A tool whose execute returns the given Observable; records the signals it received. */
function streamTool(
  name: string,
  output$: Observable<string>,
  extra: { returnDirect?: boolean; timeout?: number } = {},
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
  ...advisors: Advisor[]
): Observable<ChatChunk> {
  const chain = createAdvisorChain({
    advisors: [new ToolCallingAdvisor(options), ...advisors],
    model,
  });
  return chain.next(ChatRequest.create({ messages: [{ role: 'user', content: 'Hi' }], tools }));
}

describe('ToolCallingAdvisor (marble)', () => {
  let testScheduler: TestScheduler;

  beforeEach(() => {
    testScheduler = createTestScheduler();
  });

  it("streams round 2's deltas on their own frames and filters tool-call chunks", () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const round1 = cold('-a-d(cf|)', {
        a: text('Let me check. '),
        d: delta('c1', 'now'),
        c: call('c1', 'now'),
        f: finish('tool-calls'),
      });
      const round2 = cold('     -x-y-(f|)', {
        x: text('It is'),
        y: text(' noon.'),
        f: finish('stop'),
      });
      const expected = '   -a---x-y-(muf|)';
      const now = streamTool('now', cold('(r|)', { r: '12:00' }));
      expectObservable(loop$(MockChatModel.fromStreams([round1, round2]), [now.tool])).toBe(
        expected,
        {
          a: text('Let me check. '),
          x: text('It is'),
          y: text(' noon.'),
          m: meta(2),
          u: total(),
          f: finish('stop'),
        },
      );
      expectSubscriptions(round1.subscriptions).toBe('^---!');
      expectSubscriptions(round2.subscriptions).toBe('----^----!');
    });
  });

  it('runs an inner observer once per round, seeing the tool-call chunks', () => {
    testScheduler.run(({ cold, expectObservable }) => {
      const round1 = cold('-d-(cf|)', {
        d: delta('c1', 'now'),
        c: call('c1', 'now'),
        f: finish('tool-calls'),
      });
      const round2 = cold('    -x(f|)', { x: text('Noon.'), f: finish('stop') });
      const seen: string[] = [];
      let rounds = 0;
      const observer = advisor({
        name: 'observer',
        order: Order.HIGHEST_PRECEDENCE + 400,
        before: (request) => {
          rounds++;
          return request;
        },
        after: tap((chunk) => seen.push(`${testScheduler.now()}:${chunk.type}`)),
      });
      const now = streamTool('now', cold('(r|)', { r: '12:00' }));
      const model = MockChatModel.fromStreams([round1, round2]);
      expectObservable(loop$(model, [now.tool], {}, observer)).toBe('----x(muf|)', {
        x: text('Noon.'),
        m: meta(2),
        u: total(),
        f: finish('stop'),
      });
      testScheduler.flush();
      expect(rounds).toBe(2);
      expect(seen).toEqual([
        '1:tool-call-delta',
        '3:tool-call',
        '3:finish',
        '4:text-delta',
        '5:finish',
      ]);
    });
  });

  it('ends a return-direct round after one model call', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const round1 = cold('-(cf|)', { c: call('c1', 'lookup'), f: finish('tool-calls') });
      const lookup = streamTool('lookup', cold('--(r|)', { r: 'the answer' }), {
        returnDirect: true,
      });
      const model = MockChatModel.fromStreams([round1]);
      expectObservable(loop$(model, [lookup.tool])).toBe('---(tmuf|)', {
        t: text('the answer'),
        m: meta(1),
        u: total(),
        f: finish('return-direct'),
      });
      expectSubscriptions(round1.subscriptions).toBe('^!');
      testScheduler.flush();
      expect(model.calls).toBe(1);
    });
  });

  it('tears down the model and a running tool when unsubscribed during the tool', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const round1 = cold('-a(cf|)', {
        a: text('Wait.'),
        c: call('c1', 'slow'),
        f: finish('tool-calls'),
      });
      const slow$ = cold('-----(r|)', { r: 'late' });
      const slow = streamTool('slow', slow$);
      const model = MockChatModel.fromStreams([round1]);
      expectObservable(loop$(model, [slow.tool]), '^---!').toBe('-a--', { a: text('Wait.') });
      expectSubscriptions(round1.subscriptions).toBe('^-!');
      expectSubscriptions(slow$.subscriptions).toBe('--^-!');
      testScheduler.flush();
      expect(slow.signals.map((s) => s.aborted)).toEqual([true]);
      expect(model.calls).toBe(1);
    });
  });

  it('tears down the model when unsubscribed during a round', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const round1 = cold('-a---b-(f|)', { a: text('x'), b: text('y'), f: finish('stop') });
      expectObservable(loop$(MockChatModel.fromStreams([round1]), []), '^--!').toBe('-a-', {
        a: text('x'),
      });
      expectSubscriptions(round1.subscriptions).toBe('^--!');
    });
  });

  it('gives two subscriptions equal, not doubled, usage', () => {
    testScheduler.run(({ cold, expectObservable }) => {
      const round1 = cold('-(cuf|)', {
        c: call('c1', 'now'),
        u: usage(10, 20),
        f: finish('tool-calls'),
      });
      const round2 = cold('-x(uf|)', { x: text('Noon.'), u: usage(1, 2), f: finish('stop') });
      const model = MockChatModel.respond((request) =>
        request.messages.some((m) => m.role === 'tool') ? round2 : round1,
      );
      const now = streamTool('now', cold('(r|)', { r: '12:00' }));
      const out$ = loop$(model, [now.tool]);
      const values = {
        x: text('Noon.'),
        m: meta(2),
        u: total({ inputTokens: 11, outputTokens: 22, totalTokens: 33 }),
        f: finish('stop'),
      };
      expectObservable(out$).toBe('--x(muf|)', values);
      expectObservable(out$).toBe('--x(muf|)', values);
    });
  });

  it('runs two tools with concurrency 2 at the same time, results in call order', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const round1 = cold('-(abf|)', {
        a: call('c1', 'slowA'),
        b: call('c2', 'fastB'),
        f: finish('tool-calls'),
      });
      const round2 = cold('     -(f|)', { f: finish('stop') });
      const a$ = cold('    ----(a|)', { a: 'A' });
      const b$ = cold('    --(b|)', { b: 'B' });
      const model = MockChatModel.fromStreams([round1, round2]);
      const tools = [streamTool('slowA', a$).tool, streamTool('fastB', b$).tool];
      expectObservable(loop$(model, tools, { concurrency: 2 })).toBe('------(muf|)', {
        m: meta(2),
        u: total(),
        f: finish('stop'),
      });
      expectSubscriptions(a$.subscriptions).toBe('-^---!');
      expectSubscriptions(b$.subscriptions).toBe('-^-!');
      expectSubscriptions(round2.subscriptions).toBe('-----^!');
      testScheduler.flush();
      const results = model.requests[1].messages.filter((m): m is ToolMessage => m.role === 'tool');
      expect(results.map((m) => m.content)).toEqual(['A', 'B']);
    });
  });

  it('runs them one after the other with concurrency 1', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const round1 = cold('-(abf|)', {
        a: call('c1', 'slowA'),
        b: call('c2', 'fastB'),
        f: finish('tool-calls'),
      });
      const round2 = cold('       -(f|)', { f: finish('stop') });
      const a$ = cold('    ----(a|)', { a: 'A' });
      const b$ = cold('        --(b|)', { b: 'B' });
      const model = MockChatModel.fromStreams([round1, round2]);
      const tools = [streamTool('slowA', a$).tool, streamTool('fastB', b$).tool];
      expectObservable(loop$(model, tools, { concurrency: 1 })).toBe('--------(muf|)', {
        m: meta(2),
        u: total(),
        f: finish('stop'),
      });
      expectSubscriptions(a$.subscriptions).toBe('-^---!');
      expectSubscriptions(b$.subscriptions).toBe('-----^-!');
    });
  });

  it('answers synchronous tools at once and keeps concurrency 1 around an asynchronous one', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const started: string[] = [];
      const syncTool = (name: string): Tool =>
        tool({
          name,
          description: name,
          parameters: {},
          execute: () => {
            started.push(`${name}@${testScheduler.now()}`);
            return name.toUpperCase();
          },
        });
      const round1 = cold('-(abcf|)', {
        a: call('c1', 'first'),
        b: call('c2', 'slow'),
        c: call('c3', 'last'),
        f: finish('tool-calls'),
      });
      const round2 = cold('        ------(f|)', { f: finish('stop') });
      const slow$ = cold('    -------(s|)', { s: 'SLOW' });
      const model = MockChatModel.fromStreams([round1, round2]);
      const tools = [syncTool('first'), streamTool('slow', slow$).tool, syncTool('last')];
      expectObservable(loop$(model, tools, { concurrency: 1, emitToolEvents: true })).toBe(
        's(abce1)(p23t)(fmuy|)',
        {
          s: { type: 'round-start', round: 1 },
          a: call('c1', 'first'),
          b: call('c2', 'slow'),
          c: call('c3', 'last'),
          e: { type: 'round-end', round: 1, finishReason: 'tool-calls' },
          1: { type: 'tool-result', id: 'c1', name: 'first', content: 'FIRST' },
          // An Observable tool's values go out as they come (preliminary), then its result.
          p: { type: 'tool-result', id: 'c2', name: 'slow', content: 'SLOW', preliminary: true },
          2: { type: 'tool-result', id: 'c2', name: 'slow', content: 'SLOW' },
          3: { type: 'tool-result', id: 'c3', name: 'last', content: 'LAST' },
          t: { type: 'round-start', round: 2 },
          f: { type: 'round-end', round: 2, finishReason: 'stop' },
          m: meta(2),
          u: total(),
          y: finish('stop'),
        },
      );
      expectSubscriptions(slow$.subscriptions).toBe('-^------!');
      testScheduler.flush();
      // The last tool waits for the slow one: concurrency 1 counts it.
      expect(started).toEqual(['first@1', 'last@8']);
      const results = model.requests[1].messages.filter((m): m is ToolMessage => m.role === 'tool');
      expect(results.map((m) => m.content)).toEqual(['FIRST', 'SLOW', 'LAST']);
    });
  });

  it('with emitToolEvents sends round markers, tool calls and each tool result as it finishes', () => {
    testScheduler.run(({ cold, expectObservable }) => {
      const round1 = cold('-(cf|)', { c: call('c1', 'now'), f: finish('tool-calls') });
      const round2 = cold('      -----(xf|)', { x: text('Noon.'), f: finish('stop') });
      const now = streamTool('now', cold('-----(r|)', { r: '12:00' }));
      const model = MockChatModel.fromStreams([round1, round2]);
      expectObservable(loop$(model, [now.tool], { emitToolEvents: true })).toBe(
        's(ce)-(pqt)(xomuf|)',
        {
          s: { type: 'round-start', round: 1 },
          c: call('c1', 'now'),
          e: { type: 'round-end', round: 1, finishReason: 'tool-calls' },
          p: { type: 'tool-result', id: 'c1', name: 'now', content: '12:00', preliminary: true },
          q: { type: 'tool-result', id: 'c1', name: 'now', content: '12:00' },
          t: { type: 'round-start', round: 2 },
          x: text('Noon.'),
          o: { type: 'round-end', round: 2, finishReason: 'stop' },
          m: meta(2),
          u: total(),
          f: finish('stop'),
        },
      );
    });
  });

  it('cancels a tool past its timeout, reports it to the model and recovers', () => {
    testScheduler.run(({ cold, expectObservable }) => {
      const round1 = cold('-(cf|)', { c: call('c1', 'hang'), f: finish('tool-calls') });
      const round2 = cold('      -(xf|)', { x: text('Sorry.'), f: finish('stop') });
      const hang = streamTool('hang', NEVER, { timeout: 5 });
      const model = MockChatModel.fromStreams([round1, round2]);
      expectObservable(loop$(model, [hang.tool])).toBe('-------(xmuf|)', {
        x: text('Sorry.'),
        m: meta(2),
        u: total(),
        f: finish('stop'),
      });
      testScheduler.flush();
      expect(hang.signals.map((s) => s.aborted)).toEqual([true]);
      expect(model.requests[1].messages.at(-1)).toEqual({
        role: 'tool',
        toolCallId: 'c1',
        name: 'hang',
        content:
          'The tool "hang" did not finish within 5 ms and was cancelled. Try again later or answer without it.',
        isError: true,
      });
    });
  });

  it('passes a model error through', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const round1 = cold('-a-#', { a: text('x') }, new Error('down'));
      expectObservable(loop$(MockChatModel.fromStreams([round1]), [])).toBe(
        '-a-#',
        { a: text('x') },
        new Error('down'),
      );
      expectSubscriptions(round1.subscriptions).toBe('^--!');
    });
  });

  it('fails when a user callback (eligibility) throws', () => {
    testScheduler.run(({ cold, expectObservable }) => {
      const round1 = cold('-a(f|)', { a: text('x'), f: finish('stop') });
      const boom = new Error('checker broke');
      const eligibility = () => {
        throw boom;
      };
      expectObservable(loop$(MockChatModel.fromStreams([round1]), [], { eligibility })).toBe(
        '-a#',
        { a: text('x') },
        boom,
      );
    });
  });

  it('ends an empty model stream with metadata, usage and finish', () => {
    testScheduler.run(({ cold, expectObservable }) => {
      const round1 = cold<ChatChunk>('--|');
      expectObservable(loop$(MockChatModel.fromStreams([round1]), [])).toBe('--(muf|)', {
        m: meta(1),
        u: total(),
        f: { type: 'finish', reason: 'other' },
      });
    });
  });
});
