import {
  EMPTY,
  firstValueFrom,
  lastValueFrom,
  of,
  throwError,
  toArray,
  type Observable,
} from 'rxjs';
import { createAdvisorChain } from '../../lib/advisor-api/advisor-chain.js';
import type { ChatChunk } from '../../lib/core/chat-chunk.js';
import { ChatRequest } from '../../lib/core/chat-request.js';
import type { Message, ToolMessage } from '../../lib/core/message.js';
import type { Tool } from '../../lib/core/tool.js';
import { InvalidOptionsError } from '../../lib/errors/invalid-options-error.js';
import { ToolApprovalError } from '../../lib/errors/tool-approval-error.js';
import { MockChatModel } from '../../lib/testing/mock-chat-model.js';
import type { MockRound } from '../../lib/testing/mock-round.js';
import type { ToolApprover } from '../../lib/tools/tool-approval.js';
import { ToolCallingAdvisor } from '../../lib/tools/tool-calling-advisor.js';
import type { ToolCallingAdvisorOptions } from '../../lib/tools/tool-calling-advisor-options.js';
import { tool } from '../../lib/tools/tool-fn.js';

const ran: string[] = [];
const pay = tool({
  name: 'pay',
  description: 'Pays',
  parameters: {
    type: 'object',
    properties: { amount: { type: 'number' } },
    required: ['amount'],
  } as const,
  execute: ({ amount }) => {
    ran.push(`pay ${amount}`);
    return `paid ${amount}`;
  },
  needsApproval: async ({ amount }) => Promise.resolve(amount > 100),
});
const del = tool({
  name: 'del',
  description: 'Deletes',
  parameters: {},
  execute: () => {
    ran.push('del');
    return 'deleted';
  },
  needsApproval: true,
});
const read = tool({
  name: 'read',
  description: 'Reads',
  parameters: {},
  execute: () => {
    ran.push('read');
    return 'the file';
  },
});

const callRound = (...calls: [string, string, string?][]): MockRound => ({
  toolCalls: calls.map(([id, name, args]) => ({ id, name, arguments: args ?? '{}' })),
  finishReason: 'tool-calls',
  usage: { inputTokens: 10, outputTokens: 1 },
});
const answer: MockRound = { text: 'Done.', usage: { inputTokens: 20, outputTokens: 2 } };

function run(
  model: MockChatModel,
  options: ToolCallingAdvisorOptions,
  messages: Message[] = [{ role: 'user', content: 'Go' }],
  tools: Tool[] = [pay, del, read],
): Observable<ChatChunk> {
  const chain = createAdvisorChain({ advisors: [new ToolCallingAdvisor(options)], model });
  return chain.next(ChatRequest.create({ messages, tools }));
}

const all = (source: Observable<ChatChunk>): Promise<ChatChunk[]> =>
  lastValueFrom(source.pipe(toArray()));
const results = (messages: readonly Message[]): string[] =>
  messages.flatMap((m) => (m.role === 'tool' ? [`${m.toolCallId}:${m.content}`] : []));
const decision = (id: string, name: string, approved: boolean, reason?: string): ToolMessage => ({
  role: 'tool',
  toolCallId: id,
  name,
  content: '',
  approval: { approvalId: `approval-${id}`, approved, ...(reason === undefined ? {} : { reason }) },
});
const paused: Message[] = [
  { role: 'user', content: 'Go' },
  {
    role: 'assistant',
    content: '',
    toolCalls: [
      { id: 'c1', name: 'del', arguments: '{}' },
      { id: 'c2', name: 'read', arguments: '{}' },
    ],
  },
];

beforeEach(() => (ran.length = 0));

describe('declaring approval', () => {
  it('rejects a needsApproval that is neither a boolean nor a function', () => {
    expect(() =>
      tool({
        name: 'x',
        description: 'x',
        parameters: {},
        execute: () => 1,
        needsApproval: 'yes' as never,
      }),
    ).toThrow(InvalidOptionsError);
  });

  it('rejects bad approve and requireApproval options', () => {
    expect(() => new ToolCallingAdvisor({ approve: true as never })).toThrow(InvalidOptionsError);
    expect(() => new ToolCallingAdvisor({ requireApproval: [1] as never })).toThrow(
      InvalidOptionsError,
    );
  });

  it('asks only when the async needsApproval function says so, with the validated arguments', async () => {
    const asked: string[] = [];
    const model = MockChatModel.script([
      callRound(['c1', 'pay', '{"amount":5}'], ['c2', 'pay', '{"amount":500}']),
      answer,
    ]);
    const chunks = await all(
      run(model, { approve: ({ toolCall }) => (asked.push(toolCall.arguments), true) }),
    );
    expect(asked).toEqual(['{"amount":500}']);
    expect(chunks.filter((c) => c.type === 'tool-approval-request')).toHaveLength(1);
    expect(ran).toEqual(['pay 5', 'pay 500']);
  });

  it('requires approval by name or predicate for tools one does not own', async () => {
    for (const requireApproval of [['read'], (call: { name: string }) => call.name === 'read']) {
      ran.length = 0;
      const model = MockChatModel.script([callRound(['c1', 'read']), answer]);
      await all(
        run(model, { requireApproval, approve: () => ({ approved: false, reason: 'no' }) }),
      );
      expect(ran).toEqual([]);
      expect(results(model.requests[1].messages)).toEqual(['c1:denied by the user: no']);
    }
  });

  it('runs calls that need no approval synchronously, without asking', () => {
    const model = MockChatModel.script([callRound(['c1', 'read']), answer]);
    const approve = jest.fn(() => true);
    let done = false;
    run(model, { approve }).subscribe({ complete: () => (done = true) });
    expect(done).toBe(true);
    expect(approve).not.toHaveBeenCalled();
  });
});

describe('approval in one stream', () => {
  it('denies a call whose approve Observable completes without a decision', async () => {
    const model = MockChatModel.script([callRound(['c1', 'del']), answer]);
    await all(run(model, { approve: () => EMPTY }));
    expect(results(model.requests[1].messages)).toEqual(['c1:denied by the user: no decision']);
    expect(ran).toEqual([]);
  });

  it('fails with invalid-decision for a decision of the wrong shape, running no tool', async () => {
    const model = MockChatModel.script([callRound(['c1', 'del'], ['c2', 'read']), answer]);
    const approve = (() => of('yes')) as unknown as ToolApprover;
    const error: unknown = await all(run(model, { approve })).catch((e: unknown) => e);
    expect(ToolApprovalError.isInstance(error) && error.code).toBe('invalid-decision');
    expect(ran).toEqual([]);
  });

  it('fails with the error of a throwing or failing approve function', async () => {
    const boom = new Error('boom');
    for (const approve of [
      () => {
        throw boom;
      },
      () => throwError(() => boom),
    ]) {
      const model = MockChatModel.script([callRound(['c1', 'del']), answer]);
      await expect(all(run(model, { approve }))).rejects.toBe(boom);
    }
    expect(ran).toEqual([]);
  });

  it('aborts the signal of a pending needsApproval function when unsubscribed', () => {
    const signals: AbortSignal[] = [];
    const slow = tool({
      name: 'slow',
      description: 'Slow to decide',
      parameters: {},
      execute: () => 'x',
      needsApproval: (_args, { signal }) => (signals.push(signal), new Promise<boolean>(() => {})),
    });
    const model = MockChatModel.script([callRound(['c1', 'slow']), answer]);
    const approve = jest.fn(() => true);
    run(model, { approve }, undefined, [slow]).subscribe().unsubscribe();
    expect(signals.map((signal) => signal.aborted)).toEqual([true]);
    expect(approve).not.toHaveBeenCalled();
  });

  it('asks again on every subscription', async () => {
    const model = MockChatModel.respond((request) =>
      request.messages.at(-1)?.role === 'tool' ? answer : callRound(['c1', 'del']),
    );
    const answers = [false, true];
    const approve = jest.fn(() => answers.shift() ?? false);
    const source = run(model, { approve });
    await all(source);
    await all(source);
    expect(approve).toHaveBeenCalledTimes(2);
    expect(ran).toEqual(['del']);
    expect(results(model.requests[1].messages)).toEqual(['c1:denied by the user']);
    expect(results(model.requests[3].messages)).toEqual(['c1:deleted']);
  });

  it('emits the denial as a tool-result with emitToolEvents', async () => {
    const model = MockChatModel.script([callRound(['c1', 'del']), answer]);
    const chunks = await all(run(model, { emitToolEvents: true, approve: () => false }));
    expect(chunks).toContainEqual({
      type: 'tool-result',
      id: 'c1',
      name: 'del',
      content: 'denied by the user',
    });
  });
});

describe('approval across requests', () => {
  it('pauses, then resumes with the decisions: runs approved calls, denies the others', async () => {
    const first = MockChatModel.script([
      { ...callRound(['c1', 'del'], ['c2', 'read']), text: 'Sure.' },
    ]);
    const chunks1 = await all(run(first, {}));
    expect(chunks1.filter((c) => c.type === 'tool-approval-request')).toEqual([
      {
        type: 'tool-approval-request',
        approvalId: 'approval-c1',
        toolCall: { id: 'c1', name: 'del', arguments: '{}' },
      },
    ]);
    expect(chunks1.at(-1)).toEqual({ type: 'finish', reason: 'awaiting-approval' });
    expect(chunks1).toContainEqual({
      type: 'usage',
      usage: { inputTokens: 10, outputTokens: 1, totalTokens: 11 },
    });
    expect(ran).toEqual([]);

    const second = MockChatModel.script([answer]);
    const chunks2 = await all(
      run(second, {}, [...paused, decision('c1', 'del', false, 'keep it')]),
    );
    expect(ran).toEqual(['read']);
    expect(second.requests[0].messages).toEqual([
      ...paused,
      { role: 'tool', toolCallId: 'c1', name: 'del', content: 'denied by the user: keep it' },
      { role: 'tool', toolCallId: 'c2', name: 'read', content: 'the file' },
    ]);
    // The paused round's usage was counted by the first request only.
    expect(chunks2).toContainEqual({
      type: 'usage',
      usage: { inputTokens: 20, outputTokens: 2, totalTokens: 22 },
    });
    expect(chunks2.at(-1)).toEqual({ type: 'finish', reason: 'stop' });
  });

  it('asks again when the request resends the paused round without decisions', async () => {
    const model = MockChatModel.script([answer]);
    const chunks = await all(run(model, {}, paused));
    expect(model.calls).toBe(0);
    expect(ran).toEqual([]);
    expect(chunks.map((c) => c.type)).toEqual([
      'tool-approval-request',
      'metadata',
      'usage',
      'finish',
    ]);
    expect(chunks.at(-1)).toEqual({ type: 'finish', reason: 'awaiting-approval' });
  });

  it('runs an approved call', async () => {
    const model = MockChatModel.script([answer]);
    await all(run(model, {}, [...paused, decision('c1', 'del', true)]));
    expect(ran).toEqual(['del', 'read']);
    expect(results(model.requests[0].messages)).toEqual(['c1:deleted', 'c2:the file']);
  });

  it('answers calls left waiting as denied ("no decision") when the user sends a new message', async () => {
    const model = MockChatModel.script([answer]);
    await all(run(model, {}, [...paused, { role: 'user', content: 'Never mind' }]));
    expect(ran).toEqual([]);
    expect(model.requests[0].messages).toEqual([
      ...paused,
      { role: 'tool', toolCallId: 'c1', name: 'del', content: 'denied by the user: no decision' },
      { role: 'tool', toolCallId: 'c2', name: 'read', content: 'denied by the user: no decision' },
      { role: 'user', content: 'Never mind' },
    ]);
  });

  const refused = async (messages: Message[], tools?: Tool[]): Promise<unknown> => {
    const model = MockChatModel.script([answer]);
    const error = await firstValueFrom(run(model, {}, messages, tools)).catch((e: unknown) => e);
    expect(model.calls).toBe(0);
    expect(ran).toEqual([]);
    return ToolApprovalError.isInstance(error) ? error.code : error;
  };

  it('refuses a decision for an unknown approval id', async () => {
    const wrong = { ...decision('c1', 'del', true), approval: { approvalId: 'x', approved: true } };
    expect(await refused([...paused, wrong])).toBe('unknown-approval-id');
  });

  it('refuses a double decision and a decision for a call already answered', async () => {
    const twice = [...paused, decision('c1', 'del', true), decision('c1', 'del', false)];
    expect(await refused(twice)).toBe('duplicate-decision');
    const answered: ToolMessage = { role: 'tool', toolCallId: 'c1', name: 'del', content: 'x' };
    expect(await refused([...paused, answered, decision('c1', 'del', true)])).toBe(
      'duplicate-decision',
    );
  });

  it('refuses an approval for a tool that is no longer offered', async () => {
    expect(await refused([...paused, decision('c1', 'del', true)], [read])).toBe('tool-not-found');
  });

  it('refuses a decision whose call the client edited', async () => {
    const edited = decision('c1', 'del', true);
    edited.approval = {
      ...edited.approval!,
      toolCall: { id: 'c1', name: 'del', arguments: '{"all":true}' },
    };
    expect(await refused([...paused, edited])).toBe('arguments-edited');
  });

  it('refuses a decision for a round that is not the last', async () => {
    const messages = [
      ...paused,
      decision('c1', 'del', true),
      { role: 'user', content: 'Hm' } as Message,
    ];
    expect(await refused(messages)).toBe('unknown-approval-id');
  });
});
