import { NEVER, type Observable } from 'rxjs';
import { type TestScheduler } from 'rxjs/testing';
import { agentTool } from '../../lib/agents/agent-tool';
import { ChatClient } from '../../lib/client/chat-client';
import type { ChatChunk } from '../../lib/core/chat-chunk';
import type { Tool } from '../../lib/core/tool';
import { MockChatModel } from '../../lib/testing/mock-chat-model';
import { ToolCallingAdvisor } from '../../lib/tools/tool-calling-advisor';
import { tool } from '../../lib/tools/tool-fn';
import { createTestScheduler } from '../support/test-scheduler';

// Issue 28: a nested agent's chunks reach the parent's stream as they come (preliminary
// tool results tagged with the agent path), two agents of one round interleave by time,
// results keep the call order, and unsubscribing the parent unsubscribes the children.

const text = (t: string): ChatChunk => ({ type: 'text-delta', text: t });
const finish = (reason: 'stop' | 'tool-calls'): ChatChunk => ({ type: 'finish', reason });
const usage = (inputTokens: number, outputTokens: number): ChatChunk => ({
  type: 'usage',
  usage: { inputTokens, outputTokens, totalTokens: inputTokens + outputTokens },
});
const call = (id: string, name: string, task = 'go'): ChatChunk => ({
  type: 'tool-call',
  id,
  name,
  arguments: JSON.stringify({ task }),
});
const roundStart = (round: number): ChatChunk => ({ type: 'round-start', round });
const roundEnd = (round: number, finishReason: 'stop' | 'tool-calls'): ChatChunk => ({
  type: 'round-end',
  round,
  finishReason,
});
const meta = (rounds: number): ChatChunk => ({ type: 'metadata', rounds });
/** A child chunk as it reaches the parent: a preliminary result of the agent's call. */
const nested = (id: string, path: string[], chunk: ChatChunk): ChatChunk => ({
  type: 'tool-result',
  id,
  name: path[0],
  content: '',
  preliminary: true,
  agentChunk: { agentPath: path, chunk },
});
const progress = (id: string, name: string, content: string): ChatChunk => ({
  type: 'tool-result',
  id,
  name,
  content,
  preliminary: true,
});
const result = (id: string, name: string, content: string): ChatChunk => ({
  type: 'tool-result',
  id,
  name,
  content,
});

/** A client over these model streams, its loop sending tool events outbound. */
function client(streams: Observable<ChatChunk>[], tools: Tool[] = []): ChatClient {
  return ChatClient.builder(MockChatModel.fromStreams(streams))
    .defaultAdvisors(new ToolCallingAdvisor({ emitToolEvents: true }))
    .defaultTools(...tools)
    .build();
}

/** A client with no tools: its stream is the model's. */
const plain = (stream: Observable<ChatChunk>): ChatClient =>
  ChatClient.create(MockChatModel.fromStreams([stream]));

describe('agentTool (marble)', () => {
  let testScheduler: TestScheduler;

  beforeEach(() => {
    testScheduler = createTestScheduler();
  });

  it("sends the child's chunks as they come, then its answer, then the next round", () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const round1 = cold('-(cf|)', { c: call('c1', 'child'), f: finish('tool-calls') });
      const child$ = cold('    ----a--b--(uf|)', {
        a: text('Hel'),
        b: text('lo'),
        u: usage(3, 2),
        f: finish('stop'),
      });
      const round2 = cold('               -------(xf|)', { x: text('Done.'), f: finish('stop') });
      const child = agentTool({ client: plain(child$), name: 'child', description: 'A child' });
      const parent = client([round1, round2], [child]);
      expectObservable(parent.prompt('Hi').stream().chunks()).toBe('s(ce)A--B--(UFzrt)(xomuf|)', {
        s: roundStart(1),
        c: call('c1', 'child'),
        e: roundEnd(1, 'tool-calls'),
        A: nested('c1', ['child'], text('Hel')),
        B: nested('c1', ['child'], text('lo')),
        U: nested('c1', ['child'], usage(3, 2)),
        F: nested('c1', ['child'], finish('stop')),
        z: progress('c1', 'child', 'Hello'),
        r: result('c1', 'child', 'Hello'),
        t: roundStart(2),
        x: text('Done.'),
        o: roundEnd(2, 'stop'),
        m: meta(2),
        u: usage(3, 2),
        f: finish('stop'),
      });
      expectSubscriptions(child$.subscriptions).toBe('-^---------!');
      expectSubscriptions(round2.subscriptions).toBe('-----------^------!');
    });
  });

  it('interleaves two agents of one round by time; their results keep the call order', () => {
    testScheduler.run(({ cold, expectObservable }) => {
      const round1 = cold('-(cdf|)', {
        c: call('c1', 'slow'),
        d: call('c2', 'fast'),
        f: finish('tool-calls'),
      });
      const slow$ = cold('      ------a-------(b|)', { a: text('s1'), b: text('s2') });
      const fast$ = cold('      -------x-(y|)', { x: text('f1'), y: text('f2') });
      const round2 = cold('                     -------(f|)', { f: finish('stop') });
      const model = MockChatModel.fromStreams([round1, round2]);
      const parent = ChatClient.builder(model)
        .defaultAdvisors(new ToolCallingAdvisor({ emitToolEvents: true }))
        .defaultTools(
          agentTool({ client: plain(slow$), name: 'slow', description: 'Slow' }),
          agentTool({ client: plain(fast$), name: 'fast', description: 'Fast' }),
        )
        .build();
      expectObservable(parent.prompt('Hi').stream().chunks()).toBe(
        's(cde)-ax-(yYR)(bSrt)-(omuf|)',
        {
          s: roundStart(1),
          c: call('c1', 'slow'),
          d: call('c2', 'fast'),
          e: roundEnd(1, 'tool-calls'),
          a: nested('c1', ['slow'], text('s1')),
          x: nested('c2', ['fast'], text('f1')),
          y: nested('c2', ['fast'], text('f2')),
          Y: progress('c2', 'fast', 'f1f2'),
          b: nested('c1', ['slow'], text('s2')),
          S: progress('c1', 'slow', 's1s2'),
          r: result('c1', 'slow', 's1s2'),
          R: result('c2', 'fast', 'f1f2'),
          t: roundStart(2),
          o: roundEnd(2, 'stop'),
          m: meta(2),
          u: {
            type: 'usage',
            usage: { inputTokens: undefined, outputTokens: undefined, totalTokens: undefined },
          },
          f: finish('stop'),
        },
      );
      testScheduler.flush();
      // The client sees each result as its agent ends; the model sees them in call order.
      expect(
        model.requests[1].messages.filter((m) => m.role === 'tool').map((m) => m.content),
      ).toEqual(['s1s2', 'f1f2']);
    });
  });

  it("unsubscribing the parent unsubscribes the child's model call", () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const round1 = cold('-(cf|)', { c: call('c1', 'child'), f: finish('tool-calls') });
      const child$ = cold('    ------a------', { a: text('half') });
      const parent = client(
        [round1],
        [agentTool({ client: plain(child$), name: 'child', description: 'A child' })],
      );
      expectObservable(parent.prompt('Hi').stream().chunks(), '^---------!').toBe('s(ce)--A', {
        s: roundStart(1),
        c: call('c1', 'child'),
        e: roundEnd(1, 'tool-calls'),
        A: nested('c1', ['child'], text('half')),
      });
      expectSubscriptions(child$.subscriptions).toBe('-^--------!');
    });
  });

  it('unsubscribing the parent unsubscribes the child and aborts its tools', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const signals: AbortSignal[] = [];
      const slowTool = tool({
        name: 'crawl',
        description: 'Crawls',
        parameters: {},
        execute: (_args, { signal }) => {
          signals.push(signal);
          return NEVER;
        },
      });
      const childRound = cold<ChatChunk>('  ------(cf|)', {
        c: { type: 'tool-call', id: 'g1', name: 'crawl', arguments: '{}' },
        f: finish('tool-calls'),
      });
      const child = client([childRound], [slowTool]);
      const round1 = cold('-(cf|)', { c: call('c1', 'child'), f: finish('tool-calls') });
      const parent = client(
        [round1],
        [agentTool({ client: child, name: 'child', description: 'A child' })],
      );
      expectObservable(parent.prompt('Hi').stream().chunks(), '^-----------!').toBe('s(ceS)-(CE)', {
        s: roundStart(1),
        c: call('c1', 'child'),
        e: roundEnd(1, 'tool-calls'),
        S: nested('c1', ['child'], roundStart(1)),
        C: nested('c1', ['child'], {
          type: 'tool-call',
          id: 'g1',
          name: 'crawl',
          arguments: '{}',
        }),
        E: nested('c1', ['child'], roundEnd(1, 'tool-calls')),
      });
      expectSubscriptions(childRound.subscriptions).toBe('-^-----!');
      testScheduler.flush();
      expect(signals).toHaveLength(1);
      expect(signals[0].aborted).toBe(true);
    });
  });

  it('turns a child that errors mid-stream into an error result; what it sent stays sent', () => {
    testScheduler.run(({ cold, expectObservable }) => {
      const round1 = cold('-(cf|)', { c: call('c1', 'child'), f: finish('tool-calls') });
      const child$ = cold('    ------a-#', { a: text('half') }, new Error('connection reset'));
      const round2 = cold('             ----(f|)', { f: finish('stop') });
      const parent = client(
        [round1, round2],
        [agentTool({ client: plain(child$), name: 'child', description: 'A child' })],
      );
      expectObservable(parent.prompt('Hi').stream().chunks()).toBe('s(ce)--A-(rt)(omuf|)', {
        s: roundStart(1),
        c: call('c1', 'child'),
        e: roundEnd(1, 'tool-calls'),
        A: nested('c1', ['child'], text('half')),
        r: {
          type: 'tool-result',
          id: 'c1',
          name: 'child',
          content: 'The tool "child" failed: The agent "child" (child) failed: connection reset',
          isError: true,
        },
        t: roundStart(2),
        o: roundEnd(2, 'stop'),
        m: meta(2),
        u: {
          type: 'usage',
          usage: { inputTokens: undefined, outputTokens: undefined, totalTokens: undefined },
        },
        f: finish('stop'),
      });
    });
  });

  it("cuts the child at the agent tool's time limit: unsubscribed first, then the error result", () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const round1 = cold('-(cf|)', { c: call('c1', 'child'), f: finish('tool-calls') });
      const child$ = cold('    ----a--b----c|', { a: text('Hel'), b: text('lo'), c: text('!') });
      const round2 = cold('              ----(f|)', { f: finish('stop') });
      const child = agentTool({
        client: plain(child$),
        name: 'child',
        description: 'A child',
        timeout: 9,
      });
      const parent = client([round1, round2], [child]);
      expectObservable(parent.prompt('Hi').stream().chunks()).toBe('s(ce)A--B-(rt)(omuf|)', {
        s: roundStart(1),
        c: call('c1', 'child'),
        e: roundEnd(1, 'tool-calls'),
        A: nested('c1', ['child'], text('Hel')),
        B: nested('c1', ['child'], text('lo')),
        r: {
          type: 'tool-result',
          id: 'c1',
          name: 'child',
          content:
            'The tool "child" did not finish within 9 ms and was cancelled. Try again later or answer without it.',
          isError: true,
        },
        t: roundStart(2),
        o: roundEnd(2, 'stop'),
        m: meta(2),
        u: {
          type: 'usage',
          usage: { inputTokens: undefined, outputTokens: undefined, totalTokens: undefined },
        },
        f: finish('stop'),
      });
      expectSubscriptions(child$.subscriptions).toBe('-^--------!');
      expectSubscriptions(round2.subscriptions).toBe('----------^---!');
    });
  });
});
