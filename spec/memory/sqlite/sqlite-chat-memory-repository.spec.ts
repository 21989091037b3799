import Database from 'better-sqlite3';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lastValueFrom } from 'rxjs';
import {
  ChatClient,
  ChatMemoryError,
  InvalidOptionsError,
  MessageChatMemoryAdvisor,
  MessageWindowChatMemory,
  type Message,
} from '../../../lib/index';
import { SqliteChatMemoryRepository } from '../../../lib/memory/sqlite/index';
import { MockChatModel } from '../../../lib/testing/index';
import {
  chatMemoryRepositoryContract,
  wholeTurns,
} from '../support/chat-memory-repository-contract';
import { runTwoWriters } from '../support/two-writers';

const conversation: Message[] = [
  { role: 'system', content: 'Be brief.' },
  { role: 'user', content: 'Time in Paris and Tokyo?' },
  {
    role: 'assistant',
    content: 'Checking.',
    toolCalls: [
      { id: 'call_a', name: 'getTime', arguments: '{"city":"Paris"}' },
      { id: 'call_b', name: 'getTime', arguments: '{"city":"Tokyo"}' },
    ],
    reasoning: [{ text: 'two cities', signature: 'sig' }],
  },
  { role: 'tool', toolCallId: 'call_a', name: 'getTime', content: '12:00' },
  { role: 'tool', toolCallId: 'call_b', name: 'getTime', content: 'unknown city', isError: true },
  { role: 'assistant', content: 'Noon in Paris; Tokyo failed.' },
];

describe('SqliteChatMemoryRepository', () => {
  let folder: string;
  const open: Database.Database[] = [];
  const openDatabase = (file: string, options?: Database.Options) => {
    const db = new Database(file, options);
    open.push(db);
    return db;
  };

  beforeAll(() => {
    folder = mkdtempSync(join(tmpdir(), 'rx-advisors-memory-'));
  });
  afterEach(() => {
    for (const db of open.splice(0)) if (db.open) db.close();
  });
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it('stores every role, tool calls and results with their ids, in order, and reads them back after reopening', async () => {
    const file = join(folder, 'reopen.db');
    const first = openDatabase(file);
    await new SqliteChatMemoryRepository({ database: first }).saveAll('c1', conversation);
    first.close();

    const second = openDatabase(file);
    const repository = new SqliteChatMemoryRepository({ database: second });
    expect(await repository.findByConversationId('c1')).toEqual(conversation);
    expect(await repository.findConversationIds()).toEqual(['c1']);
    expect(second.pragma('journal_mode', { simple: true })).toBe('wal');
  });

  it('keeps a conversation across a closed and reopened database through the advisor', async () => {
    const file = join(folder, 'advisor.db');
    const turn = async (database: Database.Database, prompt: string, answer: string) => {
      const model = MockChatModel.script([{ text: answer }]);
      const chatMemory = new MessageWindowChatMemory({
        repository: new SqliteChatMemoryRepository({ database }),
      });
      const client = ChatClient.builder(model)
        .defaultSystem('Be brief.')
        .defaultAdvisors(new MessageChatMemoryAdvisor({ chatMemory }))
        .build();
      await lastValueFrom(
        client.prompt(prompt).advisorParams({ conversationId: 'ada' }).call().content(),
      );
      return model.requests[0].messages;
    };

    const before = openDatabase(file);
    await turn(before, 'I am Ada.', 'Hello Ada.');
    before.close();

    const sent = await turn(openDatabase(file), 'Who am I?', 'Ada.');
    expect(sent).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'I am Ada.' },
      { role: 'assistant', content: 'Hello Ada.' },
      { role: 'user', content: 'Who am I?' },
    ]);
  });

  it('replaces a conversation, deletes it, and returns [] for unknown ones', async () => {
    const repository = new SqliteChatMemoryRepository({ database: openDatabase(':memory:') });
    await repository.saveAll('a', conversation);
    await repository.saveAll('b', [{ role: 'user', content: 'b' }]);
    await repository.saveAll('a', [{ role: 'user', content: 'shorter' }]);
    expect(await repository.findByConversationId('a')).toEqual([
      { role: 'user', content: 'shorter' },
    ]);
    await repository.deleteByConversationId('a');
    expect(await repository.findByConversationId('a')).toEqual([]);
    expect(await repository.findConversationIds()).toEqual(['b']);
    expect(await repository.findByConversationId('nobody')).toEqual([]);
  });

  it('writes a conversation whole or not at all', async () => {
    const repository = new SqliteChatMemoryRepository({ database: openDatabase(':memory:') });
    await repository.saveAll('c1', conversation);
    const bad = [
      { role: 'user', content: 'fine' },
      { role: 'robot', content: 'not a role' },
    ];

    const error = await repository.saveAll('c1', bad as Message[]).catch((e: unknown) => e);

    expect(ChatMemoryError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ operation: 'write', conversationId: 'c1' });
    expect(await repository.findByConversationId('c1')).toEqual(conversation);
  });

  it('keeps every turn whole and in each writer order when two processes append to one conversation of one file at once', async () => {
    const file = join(folder, 'two-writers.db');
    await runTwoWriters('sqlite', file, 'two_writers', 'shared', 40);
    const repository = new SqliteChatMemoryRepository({
      database: openDatabase(file),
      tableName: 'two_writers',
    });
    const names = wholeTurns(await repository.findByConversationId('shared'));
    expect(names).toHaveLength(80);
    expect(names.filter((n) => n.startsWith('one-'))).toEqual(
      Array.from({ length: 40 }, (_, i) => `one-${i}`),
    );
    expect(names.filter((n) => n.startsWith('two-'))).toEqual(
      Array.from({ length: 40 }, (_, i) => `two-${i}`),
    );
  }, 60_000);

  it('uses its own table when given a tableName', async () => {
    const database = openDatabase(':memory:');
    const one = new SqliteChatMemoryRepository({ database, tableName: 'memory_one' });
    const two = new SqliteChatMemoryRepository({ database, tableName: 'memory_two' });
    await one.saveAll('c1', [{ role: 'user', content: 'one' }]);
    expect(await two.findByConversationId('c1')).toEqual([]);
    expect(
      database.prepare("SELECT count(*) AS n FROM sqlite_master WHERE name = 'memory_one'").get(),
    ).toEqual({ n: 1 });
  });

  describe('failures', () => {
    it('rejects with a ChatMemoryError naming SQLITE_BUSY when another connection holds the lock', async () => {
      const file = join(folder, 'locked.db');
      const holder = openDatabase(file);
      const repository = new SqliteChatMemoryRepository({
        database: openDatabase(file, { timeout: 0 }),
      });
      await repository.saveAll('c1', [{ role: 'user', content: 'before' }]);
      holder.exec('BEGIN IMMEDIATE');

      const error = await repository
        .saveAll('c1', [{ role: 'user', content: 'during' }])
        .catch((e: unknown) => e);

      expect(ChatMemoryError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({
        operation: 'write',
        code: 'SQLITE_BUSY',
        conversationId: 'c1',
      });
      expect((error as Error).message).toContain('is locked by another connection');
      expect((error as Error).message).toContain('timeout');
      expect((error as Error & { cause: { code: string } }).cause.code).toBe('SQLITE_BUSY');
      holder.exec('COMMIT');
      await repository.saveAll('c1', [{ role: 'user', content: 'after' }]);
      expect(await repository.findByConversationId('c1')).toEqual([
        { role: 'user', content: 'after' },
      ]);
    });

    it('fails the call with that ChatMemoryError when the turn cannot be saved', async () => {
      const file = join(folder, 'locked-advisor.db');
      const holder = openDatabase(file);
      const chatMemory = new MessageWindowChatMemory({
        repository: new SqliteChatMemoryRepository({
          database: openDatabase(file, { timeout: 0 }),
        }),
      });
      await chatMemory.get('c1'); // creates the table before the lock is taken
      holder.exec('BEGIN IMMEDIATE');
      const client = ChatClient.builder(MockChatModel.script([{ text: 'Hello' }]))
        .defaultAdvisors(new MessageChatMemoryAdvisor({ chatMemory }))
        .build();

      const error = await lastValueFrom(
        client.prompt('Hi').advisorParams({ conversationId: 'c1' }).call().content(),
      ).catch((e: unknown) => e);
      holder.exec('ROLLBACK');

      expect(ChatMemoryError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ code: 'SQLITE_BUSY', operation: 'write' });
    });

    it('rejects with a ChatMemoryError naming SQLITE_NOTADB for a file that is not a database', async () => {
      const file = join(folder, 'corrupt.db');
      writeFileSync(file, Buffer.alloc(8192, 0x2a));
      const repository = new SqliteChatMemoryRepository({ database: openDatabase(file) });

      const error = await repository.findByConversationId('c1').catch((e: unknown) => e);

      expect(ChatMemoryError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({
        operation: 'read',
        code: 'SQLITE_NOTADB',
        conversationId: 'c1',
      });
      expect((error as Error).message).toContain('is not a SQLite database or is corrupt');
      expect((error as Error).message).toContain('corrupt.db');
    });

    it('fails the call before the model runs when the database is corrupt', async () => {
      const file = join(folder, 'corrupt-advisor.db');
      writeFileSync(file, Buffer.alloc(8192, 0x2a));
      const model = MockChatModel.script([{ text: 'never' }]);
      const chatMemory = new MessageWindowChatMemory({
        repository: new SqliteChatMemoryRepository({ database: openDatabase(file) }),
      });
      const client = ChatClient.builder(model)
        .defaultAdvisors(new MessageChatMemoryAdvisor({ chatMemory }))
        .build();

      const error = await lastValueFrom(
        client.prompt('Hi').advisorParams({ conversationId: 'c1' }).call().content(),
      ).catch((e: unknown) => e);

      expect(ChatMemoryError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ code: 'SQLITE_NOTADB' });
      expect(model.calls).toBe(0);
    });

    it('rejects with a ChatMemoryError naming SQLITE_READONLY for a read-only database', async () => {
      const file = join(folder, 'readonly.db');
      const writer = openDatabase(file);
      await new SqliteChatMemoryRepository({ database: writer }).saveAll('c1', conversation);
      writer.close();
      const repository = new SqliteChatMemoryRepository({
        database: openDatabase(file, { readonly: true }),
      });

      expect(await repository.findByConversationId('c1')).toEqual(conversation);
      const error = await repository.deleteByConversationId('c1').catch((e: unknown) => e);

      expect(ChatMemoryError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ operation: 'delete', code: 'SQLITE_READONLY' });
      expect((error as Error).message).toContain('is read-only');
    });

    it('rejects with a ChatMemoryError for a damaged row', async () => {
      const database = openDatabase(':memory:');
      const repository = new SqliteChatMemoryRepository({ database });
      await repository.saveAll('c1', conversation);
      database
        .prepare(
          "UPDATE rx_advisors_chat_memory SET tool_calls = '{oops' WHERE conversation_id = 'c1' AND position = 2",
        )
        .run();

      const error = await repository.findByConversationId('c1').catch((e: unknown) => e);

      expect(ChatMemoryError.isInstance(error)).toBe(true);
      expect((error as Error).message).toContain('message 2');
      expect((error as Error).message).toContain('malformed tool_calls JSON');
    });

    it('rejects with a ChatMemoryError when the database was closed', async () => {
      const database = openDatabase(':memory:');
      const repository = new SqliteChatMemoryRepository({ database });
      database.close();
      const error = await repository.findByConversationId('c1').catch((e: unknown) => e);
      expect(ChatMemoryError.isInstance(error)).toBe(true);
      expect((error as Error).message).toContain('is closed');
    });

    it.each([
      ['database', {}],
      ['database', { database: 'chat.db' }],
      ['tableName', { database: new Database(':memory:'), tableName: 'x; DROP TABLE y' }],
    ])('rejects a bad %s with InvalidOptionsError', (option, options) => {
      expect(() => new SqliteChatMemoryRepository(options as never)).toThrow(InvalidOptionsError);
      expect(() => new SqliteChatMemoryRepository(options as never)).toThrow(`"${option}"`);
    });
  });
});

chatMemoryRepositoryContract(
  'SqliteChatMemoryRepository',
  () => new SqliteChatMemoryRepository({ database: new Database(':memory:') }),
  false,
  (maxMediaBytes) =>
    new SqliteChatMemoryRepository({ database: new Database(':memory:'), maxMediaBytes }),
);
