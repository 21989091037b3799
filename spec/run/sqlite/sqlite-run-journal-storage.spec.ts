import Database from 'better-sqlite3';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunKey } from '../../../lib/run/index';
import { SqliteRunJournal } from '../../../lib/run/sqlite/index';
import { everyType, numbered } from '../support/run-records';

// How SqliteRunJournal stores a run: the pages an append writes, the run's row refreshed
// once per interval (and what the sweep does with a row behind its run), a table made by an
// older version, and the `synchronous` setting it leaves on the connection.

let folder: string;
let files = 0;
const open: Database.Database[] = [];
const database = (file = join(folder, `storage-${++files}.db`)): Database.Database => {
  const db = new Database(file, { timeout: 5000 });
  open.push(db);
  return db;
};
const key: RunKey = { owner: 'alice', runId: 'run-1' };
const synchronousOf = (db: Database.Database): number =>
  db.pragma('synchronous', { simple: true }) as number;

beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), 'rx-advisors-run-sqlite-storage-'));
});
afterEach(() => {
  for (const db of open.splice(0)) if (db.open) db.close();
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe('SqliteRunJournal storage', () => {
  it('commits an append of a started run in two pages: its rows at the table’s end and their key entries', async () => {
    const file = join(folder, 'pages.db');
    const db = database(file);
    db.pragma('journal_mode = WAL');
    db.pragma('wal_autocheckpoint = 0');
    const journal = new SqliteRunJournal({ database: db });
    let length = await journal.append(key, [numbered('a', 0)], 0);
    const frames = () => (statSync(`${file}-wal`).size - 32) / (4096 + 24);
    const counts: number[] = [];
    for (let i = 0; i < 4; i++) {
      const before = frames();
      length = await journal.append(
        key,
        [numbered('b', length), numbered('c', length + 1)],
        length,
      );
      counts.push(frames() - before);
    }
    // Before: 3 pages or more (the records' b-tree, the run's row and its expiry index).
    expect(counts).toEqual([2, 2, 2, 2]);
    expect(await journal.read(key)).toHaveLength(9);
  });

  it('refreshes the run’s row once per interval; the sweep keeps a live run whose row is behind and deletes it once expired', async () => {
    const db = database();
    let now = 0;
    // A TTL of 100 s: the row is refreshed at most once per second (a 100th of the TTL).
    const journal = new SqliteRunJournal({ database: db, ttlMs: 100_000, now: () => now });
    const rowExpiry = () =>
      db
        .prepare('SELECT expires_at FROM rx_advisors_run_journal_runs WHERE run_id = ?')
        .pluck()
        .get(key.runId);
    await journal.append(key, [numbered('a', 0)], 0);
    now = 500;
    await journal.append(key, [numbered('a', 1)], 1);
    expect(rowExpiry()).toBe(100_000);
    now = 100_200;
    expect(await journal.sweep()).toBe(0);
    expect(rowExpiry()).toBe(100_500);
    expect(await journal.read(key)).toEqual([numbered('a', 0), numbered('a', 1)]);
    now = 1_300;
    await journal.append({ ...key, runId: 'run-2' }, [numbered('b', 0)], 0);
    now = 100_500;
    expect(await journal.read(key)).toEqual([]);
    expect(await journal.sweep()).toBe(1);
    expect(await journal.read({ ...key, runId: 'run-2' })).toEqual([numbered('b', 0)]);
  });

  it('reads and extends a run in a table an older version made (WITHOUT ROWID, the run’s row exact)', async () => {
    const db = database();
    db.exec(`
      CREATE TABLE rx_advisors_run_journal_runs (owner TEXT NOT NULL, run_id TEXT NOT NULL,
        length INTEGER NOT NULL, bytes INTEGER NOT NULL, expires_at INTEGER NOT NULL,
        PRIMARY KEY (owner, run_id)) WITHOUT ROWID;
      CREATE TABLE rx_advisors_run_journal (owner TEXT NOT NULL, run_id TEXT NOT NULL,
        seq INTEGER NOT NULL, record TEXT NOT NULL, PRIMARY KEY (owner, run_id, seq)) WITHOUT ROWID;`);
    const text = (label: string, n: number) => JSON.stringify({ v: 1, ...numbered(label, n) });
    const insert = db.prepare('INSERT INTO rx_advisors_run_journal VALUES (?, ?, ?, ?)');
    insert.run(key.owner, key.runId, 0, text('old', 0));
    insert.run(key.owner, key.runId, 1, text('old', 1));
    const bytes = text('old', 0).length + text('old', 1).length;
    db.prepare('INSERT INTO rx_advisors_run_journal_runs VALUES (?, ?, 2, ?, 5000)').run(
      key.owner,
      key.runId,
      bytes,
    );
    let now = 1000;
    const journal = new SqliteRunJournal({
      database: db,
      maxRunBytes: bytes + 200,
      now: () => now,
    });
    expect(await journal.read(key)).toEqual([numbered('old', 0), numbered('old', 1)]);
    await expect(journal.append(key, [numbered('new', 2)], 0)).rejects.toMatchObject({
      reason: 'conflict',
    });
    await expect(journal.append(key, [numbered('x'.repeat(300), 2)], 2)).rejects.toMatchObject({
      reason: 'too-large',
    });
    expect(await journal.append(key, [numbered('new', 2)], 2)).toBe(3);
    expect(await journal.read(key)).toEqual([
      numbered('old', 0),
      numbered('old', 1),
      numbered('new', 2),
    ]);
    now += 7 * 24 * 60 * 60 * 1000;
    expect(await journal.read(key)).toEqual([]);
  });

  it('opens a path in the side-effects mode, the first time and on a reopen (the connection at NORMAL; WAL would give FULL, then NORMAL)', async () => {
    const file = join(folder, 'sync.db');
    for (let i = 0; i < 2; i++) {
      const journal = new SqliteRunJournal({ path: file });
      await journal.append({ ...key, runId: `run-${i}` }, [numbered('a', 0)], 0);
      const db = (journal as unknown as { database: Database.Database }).database;
      // Before: 2 (FULL: every append fsynced). Which appends are: sqlite-run-journal-fsync.spec.ts.
      expect(synchronousOf(db)).toBe(1);
      journal.close();
    }
  });

  it('raises a given database to FULL for an append with a tool-call-started only, and gives it back at NORMAL', async () => {
    const db = database();
    const journal = new SqliteRunJournal({ database: db, synchronous: 'side-effects' });
    const pragmas: string[] = [];
    const exec = db.exec.bind(db);
    // Passed through: what better-sqlite3 is asked to run (strace shows the fsyncs themselves).
    jest.spyOn(db, 'exec').mockImplementation((sql: string) => {
      pragmas.push(sql);
      return exec(sql);
    });
    const [started, round, approval, call, outcome] = everyType();
    let length = await journal.append(key, [started, round], 0);
    expect(synchronousOf(db)).toBe(1);
    pragmas.push('--');
    length = await journal.append(key, [approval, call], length);
    pragmas.push('--');
    length = await journal.append(key, [outcome], length);
    expect(pragmas.filter((sql) => sql === '--' || sql.startsWith('PRAGMA'))).toEqual([
      '--',
      'PRAGMA synchronous = FULL',
      'PRAGMA synchronous = NORMAL',
      '--',
    ]);
    expect(synchronousOf(db)).toBe(1);
    expect(await journal.read(key)).toEqual([started, round, approval, call, outcome]);
    // A guarded append that fails (here a conflict) gives the connection back at NORMAL too.
    await expect(journal.append(key, [call], 0)).rejects.toMatchObject({ reason: 'conflict' });
    expect(pragmas.slice(-2)).toEqual(['PRAGMA synchronous = FULL', 'PRAGMA synchronous = NORMAL']);
    expect(synchronousOf(db)).toBe(1);
    // Inside the application's transaction the pragma cannot change: its commit decides.
    db.transaction(() => {
      void journal.append({ ...key, runId: 'run-2' }, [call], 0);
    })();
    expect(await journal.read({ ...key, runId: 'run-2' })).toEqual([call]);
    expect(length).toBe(5);
  });

  it('sets synchronous when told to, and leaves a given database’s otherwise', async () => {
    const file = join(folder, 'given.db');
    const first = database(file);
    first.pragma('journal_mode = WAL');
    first.close();
    const db = database(file);
    expect(synchronousOf(db)).toBe(1);
    await new SqliteRunJournal({ database: db }).append(key, [numbered('a', 0)], 0);
    expect(synchronousOf(db)).toBe(1);
    const full = new SqliteRunJournal({ database: db, synchronous: 'full' });
    await full.append({ ...key, runId: 'run-2' }, [numbered('a', 0)], 0);
    expect(synchronousOf(db)).toBe(2);
    const normal = new SqliteRunJournal({ path: join(folder, 'normal.db'), synchronous: 'normal' });
    const side = new SqliteRunJournal({ database: db, synchronous: 'side-effects' });
    await side.append({ ...key, runId: 'run-3' }, [numbered('a', 0)], 0);
    expect(synchronousOf(db)).toBe(1);
    await normal.append(key, [numbered('a', 0)], 0);
    expect(synchronousOf((normal as unknown as { database: Database.Database }).database)).toBe(1);
    normal.close();
    expect(() => new SqliteRunJournal({ database: db, synchronous: 'off' as 'full' })).toThrow(
      /synchronous/,
    );
  });
});
