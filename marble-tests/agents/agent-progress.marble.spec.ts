import { type TestScheduler } from 'rxjs/testing';
import { agentProgress } from '../../lib/agents/agent-progress';
import type { ChatChunk } from '../../lib/core/chat-chunk';
import { createTestScheduler } from '../support/test-scheduler';

const nested = (path: string[], chunk: ChatChunk): ChatChunk => ({
  type: 'tool-result',
  id: 'c1',
  name: path[0],
  content: '',
  preliminary: true,
  agentChunk: { agentPath: path, chunk },
});
const progress = (text: string, finished?: 'stop'): ChatChunk => ({
  type: 'data',
  name: 'agent-progress',
  id: 'c1:research',
  data: { toolCallId: 'c1', path: ['research'], text, toolCalls: [], finished },
});
const call: ChatChunk = { type: 'tool-call', id: 'c1', name: 'research', arguments: '{}' };
const result: ChatChunk = { type: 'tool-result', id: 'c1', name: 'research', content: 'Hello' };

describe('agentProgress (marble)', () => {
  let testScheduler: TestScheduler;

  beforeEach(() => {
    testScheduler = createTestScheduler();
  });

  it('turns nested text and finish into growing progress; drops other nested chunks', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold<ChatChunk>('-c-a-u-b-f-r|', {
        c: call,
        a: nested(['research'], { type: 'text-delta', text: 'Hel' }),
        u: nested(['research'], { type: 'metadata', rounds: 1 }),
        b: nested(['research'], { type: 'text-delta', text: 'lo' }),
        f: nested(['research'], { type: 'finish', reason: 'stop' }),
        r: result,
      });
      expectObservable(source.pipe(agentProgress())).toBe('-c-A---B-F-r|', {
        c: call,
        A: progress('Hel'),
        B: progress('Hello'),
        F: progress('Hello', 'stop'),
        r: result,
      });
      expectSubscriptions(source.subscriptions).toBe('^-----------!');
    });
  });

  it('passes an error and an empty source through', () => {
    testScheduler.run(({ cold, expectObservable }) => {
      expectObservable(cold<ChatChunk>('-c-#', { c: call }).pipe(agentProgress())).toBe('-c-#', {
        c: call,
      });
      expectObservable(cold<ChatChunk>('--|').pipe(agentProgress())).toBe('--|');
    });
  });

  it('unsubscribes its source early, and starts clean on re-subscription', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold<ChatChunk>('-a-b-|', {
        a: nested(['research'], { type: 'text-delta', text: 'Hel' }),
        b: nested(['research'], { type: 'text-delta', text: 'lo' }),
      });
      const progress$ = source.pipe(agentProgress());
      expectObservable(progress$, '^--!').toBe('-A-', { A: progress('Hel') });
      expectObservable(progress$).toBe('-A-B-|', { A: progress('Hel'), B: progress('Hello') });
      expectSubscriptions(source.subscriptions).toBe(['^--!', '^----!']);
    });
  });
});
