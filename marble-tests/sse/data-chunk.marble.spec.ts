import { type Observable } from 'rxjs';
import { type TestScheduler } from 'rxjs/testing';
import { createAdvisorChain } from '../../lib/advisor-api/advisor-chain';
import type { ChatChunk, DataChunk } from '../../lib/core/chat-chunk';
import type { ChatModel } from '../../lib/core/chat-model';
import { ChatRequest } from '../../lib/core/chat-request';
import type { Tool } from '../../lib/core/tool';
import { MockChatModel } from '../../lib/testing/mock-chat-model';
import { ToolCallingAdvisor } from '../../lib/tools/tool-calling-advisor';
import { tool } from '../../lib/tools/tool-fn';
import { createTestScheduler } from '../support/test-scheduler';

const text = (t: string): ChatChunk => ({ type: 'text-delta', text: t });
const data = (step: number): DataChunk => ({ type: 'data', name: 'progress', data: { step } });
const call: ChatChunk = { type: 'tool-call', id: 'c1', name: 'now', arguments: '{}' };
const finish = (reason: 'stop' | 'tool-calls'): ChatChunk => ({ type: 'finish', reason });

function loop$(model: ChatModel, tools: Tool[]): Observable<ChatChunk> {
  const chain = createAdvisorChain({ advisors: [new ToolCallingAdvisor()], model });
  return chain.next(ChatRequest.create({ messages: [{ role: 'user', content: 'Hi' }], tools }));
}

describe('data chunks through the tool loop (marble)', () => {
  let testScheduler: TestScheduler;

  beforeEach(() => {
    testScheduler = createTestScheduler();
  });

  it('are forwarded on the frame they arrive, in every round, and stop with an unsubscribe', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const round1 = cold('-p-(cf|)', { p: data(1), c: call, f: finish('tool-calls') });
      const round2 = cold('   -q-x-(f|)', { q: data(2), x: text('Noon.'), f: finish('stop') });
      const now = tool({
        name: 'now',
        description: 'now',
        parameters: {},
        execute: () => cold('(r|)', { r: '12:00' }),
      });
      const model = MockChatModel.fromStreams([round1, round2]);
      expectObservable(loop$(model, [now]), '-------!').toBe('-p--q-x', {
        p: data(1),
        q: data(2),
        x: text('Noon.'),
      });
      expectSubscriptions(round1.subscriptions).toBe('^--!');
      expectSubscriptions(round2.subscriptions).toBe('---^---!');
    });
  });
});
