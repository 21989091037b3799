import { type TestScheduler } from 'rxjs/testing';
import { createAdvisorChain } from '../../lib/advisor-api/advisor-chain.js';
import type { ChatChunk } from '../../lib/core/chat-chunk.js';
import { ChatRequest } from '../../lib/core/chat-request.js';
import type { ChatModel } from '../../lib/core/chat-model.js';
import type { Tool } from '../../lib/core/tool.js';
import { InvalidOptionsError } from '../../lib/errors/invalid-options-error.js';
import { LoopHookError } from '../../lib/errors/loop-hook-error.js';
import { MockChatModel } from '../../lib/testing/mock-chat-model.js';
import type { PrepareRound } from '../../lib/tools/prepare-round.js';
import { ToolCallingAdvisor } from '../../lib/tools/tool-calling-advisor.js';
import { tool } from '../../lib/tools/tool-fn.js';
import { createTestScheduler } from '../support/test-scheduler';

const text = (t: string): ChatChunk => ({ type: 'text-delta', text: t });
const call = (id: string, name: string): ChatChunk => ({
  type: 'tool-call',
  id,
  name,
  arguments: '{}',
});
const finish = (reason: 'stop' | 'tool-calls'): ChatChunk => ({ type: 'finish', reason });
const noUsage: ChatChunk = {
  type: 'usage',
  usage: { inputTokens: undefined, outputTokens: undefined, totalTokens: undefined },
};

const tools: Tool[] = ['search', 'answer'].map((name) =>
  tool({ name, description: name, parameters: {}, execute: () => `${name} done` }),
);

function run(model: ChatModel, prepareRound: PrepareRound) {
  const chain = createAdvisorChain({
    advisors: [new ToolCallingAdvisor({ prepareRound })],
    model,
  });
  return chain.next(ChatRequest.create({ messages: [{ role: 'user', content: 'Hi' }], tools }));
}

describe('ToolCallingAdvisor prepareRound (marble)', () => {
  let testScheduler: TestScheduler;

  beforeEach(() => {
    testScheduler = createTestScheduler();
  });

  it('changes the model, tools, tool choice and messages of one round only', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const round1 = cold('-(cf|)', { c: call('c1', 'search'), f: finish('tool-calls') });
      const round2 = cold(' -x(f|)', { x: text('Done.'), f: finish('stop') });
      const main = MockChatModel.fromStreams([round1]);
      const other = MockChatModel.fromStreams([round2]);
      const prepare: PrepareRound = ({ round, request }) =>
        round === 1
          ? { tools: ['search'], toolChoice: 'required' }
          : { model: other, messages: request.messages.slice(-2) };
      expectObservable(run(main, prepare)).toBe('--x(muf|)', {
        x: text('Done.'),
        m: { type: 'metadata', rounds: 2 },
        u: noUsage,
        f: finish('stop'),
      });
      expectSubscriptions(round2.subscriptions).toBe('-^-!');
      testScheduler.flush();
      expect(main.requests[0].tools.map((t) => t.name)).toEqual(['search']);
      expect(main.requests[0].options.toolChoice).toBe('required');
      // Round 2: the other model, the trimmed messages; the full tool list and no choice again.
      expect(other.requests[0].messages.map((m) => m.role)).toEqual(['assistant', 'tool']);
      expect(other.requests[0].tools.map((t) => t.name)).toEqual(['search', 'answer']);
      expect(other.requests[0].options.toolChoice).toBeUndefined();
    });
  });

  it('keeps the whole transcript for later rounds when a round sent trimmed messages', () => {
    const model = MockChatModel.script([
      { toolCalls: [{ name: 'search', arguments: {} }] },
      { toolCalls: [{ name: 'search', arguments: {} }] },
      { text: 'Done.' },
    ]);
    const prepare: PrepareRound = ({ round }) => (round === 2 ? { messages: [] } : undefined);
    run(model, prepare).subscribe();
    expect(model.requests.map((r) => r.messages.length)).toEqual([1, 0, 5]);
  });

  it('fails with a LoopHookError naming prepareRound when it throws; no model call is made', () => {
    const model = MockChatModel.script([{ text: 'never' }]);
    let caught: unknown;
    run(model, () => {
      throw new Error('nope');
    }).subscribe({
      error: (e: unknown) => {
        caught = e;
      },
    });
    expect(LoopHookError.isInstance(caught)).toBe(true);
    expect(caught).toMatchObject({ hook: 'prepareRound', round: 1, failure: 'threw' });
    expect(model.requests).toHaveLength(0);
  });

  it.each([
    [{ tools: ['missing'] }, 'names of offered tools (search, answer)'],
    [{ model: {} }, 'a chat model'],
    [{ temperature: 0 }, 'undefined, or { model?'],
    ['fast', 'undefined, or { model?'],
  ])('refuses an invalid return %j, saying what was expected', (returned, expected) => {
    const model = MockChatModel.script([{ text: 'never' }]);
    let caught: unknown;
    run(model, (() => returned) as unknown as PrepareRound).subscribe({
      error: (e: unknown) => {
        caught = e;
      },
    });
    expect(caught).toMatchObject({ hook: 'prepareRound', failure: 'invalid-return' });
    expect((caught as Error).message).toContain(expected);
  });

  it('rejects a prepareRound that is not a function', () => {
    const bad = { prepareRound: {} } as unknown as { prepareRound: PrepareRound };
    expect(() => new ToolCallingAdvisor(bad)).toThrow(InvalidOptionsError);
  });
});
