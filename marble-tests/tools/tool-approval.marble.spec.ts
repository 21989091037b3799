import type { Observable } from 'rxjs';
import { type TestScheduler } from 'rxjs/testing';
import { createAdvisorChain } from '../../lib/advisor-api/advisor-chain.js';
import type { ChatChunk } from '../../lib/core/chat-chunk.js';
import { ChatRequest } from '../../lib/core/chat-request.js';
import type { ChatModel } from '../../lib/core/chat-model.js';
import type { Message, ToolCall } from '../../lib/core/message.js';
import type { Tool } from '../../lib/core/tool.js';
import { MockChatModel } from '../../lib/testing/mock-chat-model.js';
import type { ToolApprovalDecision } from '../../lib/tools/tool-approval.js';
import { ToolCallingAdvisor } from '../../lib/tools/tool-calling-advisor.js';
import type { ToolCallingAdvisorOptions } from '../../lib/tools/tool-calling-advisor-options.js';
import { tool } from '../../lib/tools/tool-fn.js';
import { createTestScheduler } from '../support/test-scheduler';

const text = (t: string): ChatChunk => ({ type: 'text-delta', text: t });
const toolCall = (id: string, name: string): ToolCall => ({ id, name, arguments: '{}' });
const call = (id: string, name: string): ChatChunk => ({
  type: 'tool-call',
  ...toolCall(id, name),
});
const finish = (reason: 'stop' | 'tool-calls' | 'awaiting-approval'): ChatChunk => ({
  type: 'finish',
  reason,
});
const ask = (id: string, name: string): ChatChunk => ({
  type: 'tool-approval-request',
  approvalId: `approval-${id}`,
  toolCall: toolCall(id, name),
});
const meta = (rounds: number): ChatChunk => ({ type: 'metadata', rounds });
const total: ChatChunk = {
  type: 'usage',
  usage: { inputTokens: undefined, outputTokens: undefined, totalTokens: undefined },
};

/** A tool whose execute returns `output$`; `needsApproval` as given. */
function streamTool(name: string, output$: Observable<string>, needsApproval?: boolean): Tool {
  return tool({
    name,
    description: name,
    parameters: {},
    execute: () => output$,
    ...(needsApproval === undefined ? {} : { needsApproval }),
  });
}

function loop$(
  model: ChatModel,
  tools: Tool[],
  options: ToolCallingAdvisorOptions,
): Observable<ChatChunk> {
  const chain = createAdvisorChain({ advisors: [new ToolCallingAdvisor(options)], model });
  return chain.next(ChatRequest.create({ messages: [{ role: 'user', content: 'Hi' }], tools }));
}

const toolResults = (messages: readonly Message[]): string[] =>
  messages.flatMap((m) => (m.role === 'tool' ? [`${m.toolCallId}:${m.content}`] : []));

describe('ToolCallingAdvisor approval (marble)', () => {
  let testScheduler: TestScheduler;

  beforeEach(() => {
    testScheduler = createTestScheduler();
  });

  it('emits the request, waits for a decision arriving later, then runs the tool', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const round1 = cold('-(cf|)', { c: call('c1', 'del'), f: finish('tool-calls') });
      const round2 = cold('     -x(f|)', { x: text('Deleted.'), f: finish('stop') });
      const decision$ = cold<boolean>('---a', { a: true });
      const del$ = cold('(r|)', { r: 'ok' });
      const model = MockChatModel.fromStreams([round1, round2]);
      const approve = (): Observable<boolean> => decision$;
      expectObservable(loop$(model, [streamTool('del', del$, true)], { approve })).toBe(
        '-q---x(muf|)',
        { q: ask('c1', 'del'), x: text('Deleted.'), m: meta(2), u: total, f: finish('stop') },
      );
      expectSubscriptions(decision$.subscriptions).toBe('-^--!');
      expectSubscriptions(del$.subscriptions).toBe('----(^!)');
      expectSubscriptions(round2.subscriptions).toBe('----^-!');
      testScheduler.flush();
      expect(toolResults(model.requests[1].messages)).toEqual(['c1:ok']);
    });
  });

  it('cancels the pending decision cleanly when unsubscribed while waiting', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const round1 = cold('-(cf|)', { c: call('c1', 'del'), f: finish('tool-calls') });
      const decision$ = cold<boolean>('------a', { a: true });
      const del$ = cold('(r|)', { r: 'ok' });
      const model = MockChatModel.fromStreams([round1]);
      const source$ = loop$(model, [streamTool('del', del$, true)], { approve: () => decision$ });
      expectObservable(source$, '^--!').toBe('-q-', { q: ask('c1', 'del') });
      expectSubscriptions(round1.subscriptions).toBe('^!');
      expectSubscriptions(decision$.subscriptions).toBe('-^-!');
      expectSubscriptions(del$.subscriptions).toBe([]);
      testScheduler.flush();
      expect(model.calls).toBe(1);
    });
  });

  it('runs a mixed round after its approvals: calls needing none wait, denied ones get their denial', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const round1 = cold('-(abf|)', {
        a: call('c1', 'del'),
        b: call('c2', 'read'),
        f: finish('tool-calls'),
      });
      const round2 = cold('   -x(f|)', { x: text('Kept it.'), f: finish('stop') });
      const decision$ = cold<ToolApprovalDecision>('--(d|)', {
        d: { approved: false, reason: 'too risky' },
      });
      const del$ = cold('(r|)', { r: 'deleted' });
      const read$ = cold('(r|)', { r: 'the file' });
      const model = MockChatModel.fromStreams([round1, round2]);
      const tools = [streamTool('del', del$, true), streamTool('read', read$)];
      expectObservable(loop$(model, tools, { approve: () => decision$ })).toBe('-q--x(muf|)', {
        q: ask('c1', 'del'),
        x: text('Kept it.'),
        m: meta(2),
        u: total,
        f: finish('stop'),
      });
      expectSubscriptions(decision$.subscriptions).toBe('-^-!');
      expectSubscriptions(del$.subscriptions).toBe([]);
      expectSubscriptions(read$.subscriptions).toBe('---(^!)');
      testScheduler.flush();
      expect(toolResults(model.requests[1].messages)).toEqual([
        'c1:denied by the user: too risky',
        'c2:the file',
      ]);
    });
  });

  it('without approve, ends the stream with the requests and awaiting-approval; no tool runs', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const round1 = cold('-a(bcf|)', {
        a: text('Sure.'),
        b: call('c1', 'del'),
        c: call('c2', 'read'),
        f: finish('tool-calls'),
      });
      const del$ = cold('(r|)', { r: 'deleted' });
      const read$ = cold('(r|)', { r: 'the file' });
      const model = MockChatModel.fromStreams([round1]);
      const tools = [streamTool('del', del$, true), streamTool('read', read$)];
      expectObservable(loop$(model, tools, {})).toBe('-a(qmuf|)', {
        a: text('Sure.'),
        q: ask('c1', 'del'),
        m: meta(1),
        u: total,
        f: finish('awaiting-approval'),
      });
      expectSubscriptions(round1.subscriptions).toBe('^-!');
      expectSubscriptions(del$.subscriptions).toBe([]);
      expectSubscriptions(read$.subscriptions).toBe([]);
    });
  });
});
