import Database from 'better-sqlite3';
import { lastValueFrom, toArray } from 'rxjs';
import {
  ChatClient,
  MessageChatMemoryAdvisor,
  MessageWindowChatMemory,
  type ChatChunk,
  type Message,
  type ToolMessage,
} from '../../lib/index';
import { SqliteChatMemoryRepository } from '../../lib/memory/sqlite/index';
import { MockChatModel } from '../../lib/testing/index';
import type { MockRound } from '../../lib/testing/mock-round.js';
import { tool } from '../../lib/tools/tool-fn.js';

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
const decision = (approved: boolean, reason?: string): ToolMessage => ({
  role: 'tool',
  toolCallId: 'c1',
  name: 'del',
  content: '',
  approval: { approvalId: 'approval-c1', approved, ...(reason === undefined ? {} : { reason }) },
});

describe.each(['call', 'stream'] as const)(
  'approval across requests with SQLite memory (%s)',
  (mode) => {
    let database: Database.Database;
    let repository: SqliteChatMemoryRepository;

    beforeEach(() => {
      ran.length = 0;
      database = new Database(':memory:');
      repository = new SqliteChatMemoryRepository({ database });
    });
    afterEach(() => database.close());

    /** One request: the user text or the messages, in the given mode; the chunks or the text. */
    async function send(model: MockChatModel, input: string | Message[]): Promise<string> {
      const chatMemory = new MessageWindowChatMemory({ repository });
      const client = ChatClient.builder(model)
        .defaultAdvisors(new MessageChatMemoryAdvisor({ chatMemory, saveToolMessages: true }))
        .defaultTools(del, read)
        .build();
      const prompt = (
        typeof input === 'string' ? client.prompt(input) : client.prompt().messages(...input)
      ).advisorParams({ conversationId: 'ada' });
      if (mode === 'call') return lastValueFrom(prompt.call().content());
      const chunks: ChatChunk[] = await lastValueFrom(prompt.stream().chunks().pipe(toArray()));
      return JSON.stringify(chunks.filter((c) => c.type !== 'text-delta'));
    }

    const stored = (): Promise<Message[]> => repository.findByConversationId('ada');
    const paused: Message[] = [
      { role: 'user', content: 'Delete Bob' },
      {
        role: 'assistant',
        content: 'Sure.',
        toolCalls: [
          { id: 'c1', name: 'del', arguments: '{}' },
          { id: 'c2', name: 'read', arguments: '{}' },
        ],
      },
    ];

    it('stores exactly what the model needs after a denial', async () => {
      const first = await send(MockChatModel.script([pausing]), 'Delete Bob');
      if (mode === 'stream') expect(first).toContain('"reason":"awaiting-approval"');
      expect(ran).toEqual([]);
      expect(await stored()).toEqual(paused);

      const model = MockChatModel.script([{ text: 'Kept Bob.' }]);
      await send(model, [decision(false, 'not Bob')]);
      const results: Message[] = [
        { role: 'tool', toolCallId: 'c1', name: 'del', content: 'denied by the user: not Bob' },
        { role: 'tool', toolCallId: 'c2', name: 'read', content: 'the table' },
      ];
      expect(model.requests[0].messages).toEqual([...paused, ...results]);
      expect(ran).toEqual(['read']);
      expect(await stored()).toEqual([
        ...paused,
        ...results,
        { role: 'assistant', content: 'Kept Bob.' },
      ]);
    });

    it('stores exactly what the model needs after an approval', async () => {
      await send(MockChatModel.script([pausing]), 'Delete Bob');
      await send(MockChatModel.script([{ text: 'Deleted Bob.' }]), [decision(true)]);
      expect(ran).toEqual(['del', 'read']);
      expect(await stored()).toEqual([
        ...paused,
        { role: 'tool', toolCallId: 'c1', name: 'del', content: 'deleted' },
        { role: 'tool', toolCallId: 'c2', name: 'read', content: 'the table' },
        { role: 'assistant', content: 'Deleted Bob.' },
      ]);
    });

    it('sends no unanswered call to the model when the user writes instead of deciding', async () => {
      await send(MockChatModel.script([pausing]), 'Delete Bob');
      const model = MockChatModel.script([{ text: 'Hello.' }]);
      await send(model, 'Actually, hello');
      expect(ran).toEqual([]);
      const sent = model.requests[0].messages;
      const calls = sent.flatMap((m) => (m.role === 'assistant' ? (m.toolCalls ?? []) : []));
      const answered = new Set(sent.flatMap((m) => (m.role === 'tool' ? [m.toolCallId] : [])));
      expect(calls.every((c) => answered.has(c.id))).toBe(true);
    });
  },
);
