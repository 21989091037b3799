import { NEVER, type Observable } from 'rxjs';
import { type TestScheduler } from 'rxjs/testing';
import { createAdvisorChain } from '../../lib/advisor-api/advisor-chain.js';
import type { ChatChunk } from '../../lib/core/chat-chunk';
import type { ChatModel } from '../../lib/core/chat-model';
import { ChatRequest } from '../../lib/core/chat-request';
import type { Tool } from '../../lib/core/tool.js';
import { ToolTimeoutError } from '../../lib/errors/tool-timeout-error';
import { MockChatModel } from '../../lib/testing/mock-chat-model';
import { executeToolCalls } from '../../lib/tools/execute-tool-calls';
import { ToolCallingAdvisor } from '../../lib/tools/tool-calling-advisor';
import type { ToolCallingAdvisorOptions } from '../../lib/tools/tool-calling-advisor-options';
import { tool } from '../../lib/tools/tool-fn';
import { createTestScheduler } from '../support/test-scheduler';

const call: ChatChunk = { type: 'tool-call', id: 'c1', name: 'hang', arguments: '{}' };
const askTools: ChatChunk = { type: 'finish', reason: 'tool-calls' };
const stop: ChatChunk = { type: 'finish', reason: 'stop' };
const sorry: ChatChunk = { type: 'text-delta', text: 'Sorry.' };
const meta: ChatChunk = { type: 'metadata', rounds: 2 };
const total: ChatChunk = {
  type: 'usage',
  usage: { inputTokens: undefined, outputTokens: undefined, totalTokens: undefined },
};
const TIMEOUT_TEXT =
  'The tool "hang" did not finish within 300000 ms and was cancelled. Try again later or answer without it.';

/** A tool that never answers; records whether its signal fired. */
function hangTool(): { tool: Tool; signals: AbortSignal[] } {
  const signals: AbortSignal[] = [];
  const hang = tool({
    name: 'hang',
    description: 'Never answers',
    parameters: {},
    execute: (_args, { signal }) => {
      signals.push(signal);
      return NEVER;
    },
  });
  return { tool: hang, signals };
}

function loop$(
  model: ChatModel,
  tools: Tool[],
  options: ToolCallingAdvisorOptions = {},
): Observable<ChatChunk> {
  const chain = createAdvisorChain({ advisors: [new ToolCallingAdvisor(options)], model });
  return chain.next(ChatRequest.create({ messages: [{ role: 'user', content: 'Hi' }], tools }));
}

describe('default tool timeout (marble)', () => {
  let testScheduler: TestScheduler;

  beforeEach(() => {
    testScheduler = createTestScheduler();
  });

  it('cancels a tool after 5 minutes by default and reports it to the model', () => {
    testScheduler.run(({ cold, expectObservable }) => {
      const round1 = cold('-(cf|)', { c: call, f: askTools });
      const round2 = cold('-(xf|)', { x: sorry, f: stop });
      const hang = hangTool();
      const model = MockChatModel.fromStreams([round1, round2]);
      // The tool starts at frame 1 and is cancelled at 300,001; round 2 answers one frame later.
      expectObservable(loop$(model, [hang.tool])).toBe('300002ms (xmuf|)', {
        x: sorry,
        m: meta,
        u: total,
        f: stop,
      });
      testScheduler.flush();
      expect(hang.signals.map((s) => s.aborted)).toEqual([true]);
      expect(model.requests[1].messages.at(-1)).toEqual({
        role: 'tool',
        toolCallId: 'c1',
        name: 'hang',
        content: TIMEOUT_TEXT,
        isError: true,
      });
    });
  });

  it('fails the stream with a ToolTimeoutError under onToolError: throw', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const round1 = cold('-(cf|)', { c: call, f: askTools });
      const model = MockChatModel.fromStreams([round1]);
      const error = new ToolTimeoutError({ toolName: 'hang', toolCallId: 'c1', timeout: 300_000 });
      expectObservable(loop$(model, [hangTool().tool], { onToolError: 'throw' })).toBe(
        '300001ms #',
        undefined,
        error,
      );
      expectSubscriptions(round1.subscriptions).toBe('^!');
    });
  });

  it('never cancels with toolTimeout: Infinity', () => {
    testScheduler.run(({ cold, expectObservable }) => {
      const round1 = cold('-(cf|)', { c: call, f: askTools });
      const hang = hangTool();
      const model = MockChatModel.fromStreams([round1]);
      expectObservable(loop$(model, [hang.tool], { toolTimeout: Infinity }), '^ 400000ms !').toBe(
        '',
      );
      testScheduler.flush();
      expect(hang.signals.map((s) => s.aborted)).toEqual([true]); // aborted by the unsubscription
    });
  });

  it('applies the same default in executeToolCalls', () => {
    testScheduler.run(({ expectObservable }) => {
      const results$ = executeToolCalls({
        toolCalls: [{ id: 'c1', name: 'hang', arguments: '{}' }],
        tools: [hangTool().tool],
      });
      expectObservable(results$).toBe('300000ms (r|)', {
        r: [{ role: 'tool', toolCallId: 'c1', name: 'hang', content: TIMEOUT_TEXT, isError: true }],
      });
    });
  });
});
