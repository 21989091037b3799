import Database from 'better-sqlite3';
import { lastValueFrom, toArray } from 'rxjs';
import {
  ChatClient,
  MessageChatMemoryAdvisor,
  MessageWindowChatMemory,
  ToolApprovalError,
  type ChatChunk,
  type Message,
  type ToolMessage,
} from '../../lib/index';
import { SqliteChatMemoryRepository } from '../../lib/memory/sqlite/index';
import { MockChatModel } from '../../lib/testing/index';
import type { MockRound } from '../../lib/testing/mock-round.js';
import { tool } from '../../lib/tools/tool-fn.js';

// Issue 30, point 11: a replayed decision is `duplicate-decision`, never silently dropped;
// with memory's default `saveToolMessages: false` a legitimate decision is applied.
const ran: string[] = [];
const del = tool({
  name: 'del',
  description: 'Deletes a user',
  parameters: {},
  execute: () => (ran.push('del'), 'deleted'),
  needsApproval: true,
});
const read = tool({
  name: 'read',
  description: 'Reads the table',
  parameters: {},
  execute: () => (ran.push('read'), 'the table'),
});
const pausing: MockRound = {
  text: 'Sure.',
  toolCalls: [
    { id: 'c1', name: 'del', arguments: '{}' },
    { id: 'c2', name: 'read', arguments: '{}' },
  ],
  finishReason: 'tool-calls',
  usage: { inputTokens: 10, outputTokens: 1 },
};
const decision = (approved: boolean): ToolMessage => ({
  role: 'tool',
  toolCallId: 'c1',
  name: 'del',
  content: '',
  approval: { approvalId: 'approval-c1', approved },
});
const codeOf = (error: unknown): unknown =>
  ToolApprovalError.isInstance(error) ? error.code : error;

describe.each([
  ['call', true],
  ['stream', true],
  ['call', false],
  ['stream', false],
] as const)('approval decisions with SQLite memory (%s, saveToolMessages: %s)', (mode, save) => {
  let database: Database.Database;
  let repository: SqliteChatMemoryRepository;

  beforeEach(() => {
    ran.length = 0;
    database = new Database(':memory:');
    repository = new SqliteChatMemoryRepository({ database });
  });
  afterEach(() => database.close());

  async function send(model: MockChatModel, input: string | Message[]): Promise<string> {
    const chatMemory = new MessageWindowChatMemory({ repository });
    const memory = new MessageChatMemoryAdvisor(
      save ? { chatMemory, saveToolMessages: true } : { chatMemory },
    );
    const client = ChatClient.builder(model)
      .defaultAdvisors(memory)
      .defaultTools(del, read)
      .build();
    const prompt = (
      typeof input === 'string' ? client.prompt(input) : client.prompt().messages(...input)
    ).advisorParams({ conversationId: 'ada' });
    if (mode === 'call') return lastValueFrom(prompt.call().content());
    const chunks: ChatChunk[] = await lastValueFrom(prompt.stream().chunks().pipe(toArray()));
    return chunks.flatMap((c) => (c.type === 'text-delta' ? [c.text] : [])).join('');
  }

  it.each([true, false])('applies a legitimate decision (approved: %s)', async (approved) => {
    await send(MockChatModel.script([pausing]), 'Delete Bob');
    expect(ran).toEqual([]);
    const model = MockChatModel.script([{ text: approved ? 'Deleted Bob.' : 'Kept Bob.' }]);
    expect(await send(model, [decision(approved)])).toContain(approved ? 'Deleted' : 'Kept');
    expect(ran).toEqual(approved ? ['del', 'read'] : ['read']);
    expect(model.requests[0].messages.slice(-2)).toEqual([
      {
        role: 'tool',
        toolCallId: 'c1',
        name: 'del',
        content: approved ? 'deleted' : 'denied by the user',
      },
      { role: 'tool', toolCallId: 'c2', name: 'read', content: 'the table' },
    ]);
    // What memory keeps afterwards is a conversation a model accepts.
    const next = MockChatModel.script([{ text: 'Hello.' }]);
    await send(next, 'Thanks');
    const sent = next.requests[0].messages;
    const calls = sent.flatMap((m) => (m.role === 'assistant' ? (m.toolCalls ?? []) : []));
    const answered = new Set(sent.flatMap((m) => (m.role === 'tool' ? [m.toolCallId] : [])));
    expect(calls.every((c) => answered.has(c.id))).toBe(true);
  });

  it.each([true, false])(
    'refuses a decision replayed after the first (approved: %s) with duplicate-decision',
    async (approved) => {
      await send(MockChatModel.script([pausing]), 'Delete Bob');
      await send(MockChatModel.script([{ text: 'Done.' }]), [decision(approved)]);
      ran.length = 0;
      const model = MockChatModel.script([{ text: 'Again?' }]);
      const error = await send(model, [decision(true)]).catch((e: unknown) => e);
      expect(codeOf(error)).toBe('duplicate-decision');
      expect(model.calls).toBe(0);
      expect(ran).toEqual([]);
    },
  );
});

describe('a replayed decision without memory', () => {
  it('is duplicate-decision when the client resends the conversation with the decision again', async () => {
    ran.length = 0;
    const model = MockChatModel.script([{ text: 'Again?' }]);
    const client = ChatClient.builder(model).defaultTools(del, read).build();
    const conversation: Message[] = [
      { role: 'user', content: 'Delete Bob' },
      { role: 'assistant', content: 'Sure.', toolCalls: pausing.toolCalls as never },
      { role: 'tool', toolCallId: 'c1', name: 'del', content: 'deleted' },
      { role: 'tool', toolCallId: 'c2', name: 'read', content: 'the table' },
      { role: 'assistant', content: 'Deleted Bob.' },
      decision(true),
    ];
    const error = await lastValueFrom(
      client
        .prompt()
        .messages(...conversation)
        .call()
        .content(),
    ).catch((e: unknown) => e);
    expect(codeOf(error)).toBe('duplicate-decision');
    expect(model.calls).toBe(0);
    expect(ran).toEqual([]);
  });
});
