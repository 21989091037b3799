import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Message } from '../../../lib/index';
import { SqliteChatMemoryRepository } from '../../../lib/memory/sqlite/index';

const turn = (i: number): Message[] => [
  { role: 'user', content: `q${i}` },
  { role: 'assistant', content: `a${i}` },
];
const turns = (from: number, to: number) =>
  Array.from({ length: to - from }, (_, i) => turn(from + i)).flat();

/** The memory table of a version before window starts: no `window_start` column. */
function earlierTable(db: Database.Database): void {
  db.exec(`CREATE TABLE rx_advisors_chat_memory (
      conversation_id TEXT NOT NULL, position INTEGER NOT NULL,
      role TEXT NOT NULL CHECK (role IN ('system', 'user', 'assistant', 'tool')),
      content TEXT NOT NULL, tool_calls TEXT, reasoning TEXT, tool_call_id TEXT,
      tool_name TEXT, is_error INTEGER, media TEXT, created_at INTEGER NOT NULL,
      PRIMARY KEY (conversation_id, position)) WITHOUT ROWID`);
  const insert = db.prepare(`INSERT INTO rx_advisors_chat_memory
      (conversation_id, position, role, content, created_at) VALUES ('c1', ?, ?, ?, 0)`);
  insert.run(0, 'system', 'Be brief.');
  turns(0, 5).forEach((message, i) => insert.run(i + 1, message.role, message.content));
}

describe('SqliteChatMemoryRepository window start (trims in batches)', () => {
  let folder: string;
  beforeAll(() => (folder = mkdtempSync(join(tmpdir(), 'rx-advisors-start-'))));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it('moves the window start on each append and deletes the rows before it in batches, reading exactly the window', async () => {
    const db = new Database(':memory:');
    const repository = new SqliteChatMemoryRepository({ database: db });
    await repository.saveAll('c1', [{ role: 'system', content: 'Be brief.' }]);
    const stored = db.prepare<[], number>('SELECT count(*) FROM rx_advisors_chat_memory').pluck();
    const counts: number[] = [];
    for (let i = 0; i < 100; i++) {
      await repository.append('c1', turn(i), { keepLast: 11 });
      const window = [
        { role: 'system', content: 'Be brief.' },
        ...turns(Math.max(0, i - 4), i + 1),
      ];
      expect(await repository.findByConversationId('c1')).toEqual(window);
      expect(await repository.findLast('c1', 4)).toEqual([window[0], ...window.slice(1).slice(-4)]);
      counts.push(stored.get() ?? 0);
    }
    // More rows than the window stay in place between two batches, never more than 64 more.
    expect(Math.max(...counts)).toBeGreaterThan(11);
    expect(Math.max(...counts)).toBeLessThanOrEqual(11 + 64);
    expect(Math.min(...counts.slice(10))).toBeLessThan(11 + 64);
    db.close();
  });

  it('forgets the window start when a conversation is replaced or deleted', async () => {
    const db = new Database(':memory:');
    const repository = new SqliteChatMemoryRepository({ database: db });
    for (let i = 0; i < 10; i++) await repository.append('c1', turn(i), { keepLast: 4 });
    await repository.saveAll('c1', turns(0, 3));
    expect(await repository.findByConversationId('c1')).toEqual(turns(0, 3));
    for (let i = 0; i < 10; i++) await repository.append('c2', turn(i), { keepLast: 4 });
    await repository.deleteByConversationId('c2');
    expect(await repository.findConversationIds()).toEqual(['c1']);
    await repository.append('c2', turn(0), { keepLast: 4 });
    expect(await repository.findByConversationId('c2')).toEqual(turn(0));
    db.close();
  });

  it('reads and appends to a table of an earlier version (no window_start column)', async () => {
    const db = new Database(':memory:');
    earlierTable(db);
    const repository = new SqliteChatMemoryRepository({ database: db });
    const system: Message = { role: 'system', content: 'Be brief.' };
    expect(await repository.findByConversationId('c1')).toEqual([system, ...turns(0, 5)]);
    await repository.append('c1', turn(5), { keepLast: 5 });
    expect(await repository.findByConversationId('c1')).toEqual([system, ...turns(4, 6)]);
    expect(await repository.findLast('c1', 10)).toEqual([system, ...turns(4, 6)]);
    db.close();
  });

  it('reads a read-only database of an earlier version (no window_start column)', async () => {
    const file = join(folder, 'earlier.db');
    const writer = new Database(file);
    earlierTable(writer);
    writer.close();
    const db = new Database(file, { readonly: true });
    const repository = new SqliteChatMemoryRepository({ database: db });
    const system: Message = { role: 'system', content: 'Be brief.' };
    expect(await repository.findByConversationId('c1')).toEqual([system, ...turns(0, 5)]);
    expect(await repository.findLast('c1', 2)).toEqual([system, ...turns(4, 5)]);
    db.close();
  });
});
