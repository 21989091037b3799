import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteChatMemoryRepository } from '../../lib/memory/sqlite/index';
import { setUpSqlite } from '../../lib/sqlite/set-up-sqlite';

/**
 * The database as SQLite answers a connection that lost the race to set up a new file
 * against another process: the WAL switch fails at once with SQLITE_BUSY (no busy handler
 * called) the first `times` tries.
 */
function losingTheRace(
  db: Database.Database,
  times: number,
): { db: Database.Database; tries: () => number } {
  let tries = 0;
  const proxy = new Proxy(db, {
    get(target, name) {
      const value: unknown = Reflect.get(target, name, target);
      if (name === 'pragma') {
        return (source: string, options?: Database.PragmaOptions) => {
          if (source === 'journal_mode = WAL' && tries++ < times) {
            throw new Database.SqliteError('database is locked', 'SQLITE_BUSY');
          }
          return target.pragma(source, options);
        };
      }
      return typeof value === 'function'
        ? (value as (...a: unknown[]) => unknown).bind(target)
        : value;
    },
  });
  return { db: proxy, tries: () => tries };
}

describe('setUpSqlite', () => {
  let folder: string;
  const open: Database.Database[] = [];
  const openDatabase = (name: string, options?: Database.Options) => {
    const db = new Database(join(folder, name), options);
    open.push(db);
    return db;
  };
  beforeAll(() => {
    folder = mkdtempSync(join(tmpdir(), 'rx-advisors-setup-'));
  });
  afterEach(() => {
    for (const db of open.splice(0)) if (db.open) db.close();
  });
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it('tries again while another process sets the file up, then switches it to WAL and runs the setup', () => {
    const { db, tries } = losingTheRace(openDatabase('race.db'), 3);
    const result = setUpSqlite(db, () => {
      db.exec('CREATE TABLE IF NOT EXISTS notes (text TEXT)');
      return 'set up';
    });
    expect(result).toBe('set up');
    expect(tries()).toBe(4);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.prepare('SELECT count(*) AS n FROM notes').get()).toEqual({ n: 0 });
  });

  it('gives up with SQLite’s error once the busy timeout has passed', () => {
    const { db, tries } = losingTheRace(openDatabase('never.db', { timeout: 30 }), Infinity);
    const work = jest.fn(() => undefined);
    expect(() => setUpSqlite(db, work)).toThrow(
      expect.objectContaining({ code: 'SQLITE_BUSY' }) as Error,
    );
    expect(tries()).toBeGreaterThan(1);
    expect(work).not.toHaveBeenCalled();
  });

  it('does not retry when the connection has no busy timeout', () => {
    const { db, tries } = losingTheRace(openDatabase('no-wait.db', { timeout: 0 }), Infinity);
    expect(() => setUpSqlite(db, () => 'never')).toThrow('database is locked');
    expect(tries()).toBe(1);
  });

  it('throws any other error at once', () => {
    const db = openDatabase('other.db');
    const work = jest.fn(() => db.exec('CREATE TABLE broken ('));
    expect(() => setUpSqlite(db, work)).toThrow(
      expect.objectContaining({ code: 'SQLITE_ERROR' }) as Error,
    );
    expect(work).toHaveBeenCalledTimes(1);
  });

  it('waits for a lock another connection holds, up to the busy timeout, like any statement', () => {
    const holder = openDatabase('held.db');
    holder.exec('CREATE TABLE t (x); BEGIN EXCLUSIVE');
    const db = openDatabase('held.db', { timeout: 50 });
    expect(() => setUpSqlite(db, () => db.exec('CREATE TABLE IF NOT EXISTS u (y)'))).toThrow(
      expect.objectContaining({ code: 'SQLITE_BUSY' }) as Error,
    );
    holder.exec('COMMIT');
    setUpSqlite(db, () => db.exec('CREATE TABLE IF NOT EXISTS u (y)'));
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
  });

  it('lets a chat memory open on a file another process is setting up', async () => {
    const { db, tries } = losingTheRace(openDatabase('memory.db'), 2);
    const repository = new SqliteChatMemoryRepository({ database: db });
    await repository.saveAll('c1', [{ role: 'user', content: 'hi' }]);
    expect(await repository.findByConversationId('c1')).toEqual([{ role: 'user', content: 'hi' }]);
    expect(tries()).toBe(3);
  });
});
