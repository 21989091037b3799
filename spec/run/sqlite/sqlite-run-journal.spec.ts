import Database from 'better-sqlite3';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InvalidOptionsError } from '../../../lib/index';
import { RunJournalError, type RunKey } from '../../../lib/run/index';
import { SqliteRunJournal } from '../../../lib/run/sqlite/index';
import { runJournalContract } from '../support/run-journal-contract';
import { failureOf, numbered } from '../support/run-records';
import { runTwoJournalWriters } from '../support/two-journal-writers';

let folder: string;
let files = 0;
const open: Database.Database[] = [];
const database = (file: string, timeout = 5000): Database.Database => {
  const db = new Database(file, { timeout });
  open.push(db);
  return db;
};
const key: RunKey = { owner: 'alice', runId: 'run-1' };

beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), 'rx-advisors-run-sqlite-'));
});
afterEach(() => {
  for (const db of open.splice(0)) if (db.open) db.close();
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

runJournalContract('SqliteRunJournal', (limits) => {
  const file = join(folder, `contract-${++files}.db`);
  let now = 1_000_000;
  const clock = { now: () => now };
  const journal = new SqliteRunJournal({ ...limits, ...clock, database: database(file) });
  const other = new SqliteRunJournal({ ...limits, ...clock, database: database(file) });
  return Promise.resolve({
    journal,
    other,
    overwrite: (run, index, text) => {
      database(file)
        .prepare(
          'UPDATE rx_advisors_run_journal SET record = ? WHERE owner = ? AND run_id = ? AND seq = ?',
        )
        .run(text, run.owner, run.runId, index);
      return Promise.resolve();
    },
    advance: (ms) => {
      now += ms;
    },
  });
});

describe('SqliteRunJournal', () => {
  it('validates its options: a database or a path, a table name, the limits', () => {
    const db = database(':memory:');
    expect(() => new SqliteRunJournal({})).toThrow(InvalidOptionsError);
    expect(() => new SqliteRunJournal({ database: db, path: 'x.db' })).toThrow(/database/);
    expect(() => new SqliteRunJournal({ database: {} as Database.Database })).toThrow(/database/);
    expect(() => new SqliteRunJournal({ database: db, tableName: 'a b' })).toThrow(/tableName/);
    expect(() => new SqliteRunJournal({ database: db, maxRecords: 0 })).toThrow(/maxRecords/);
  });

  it('opens a file from a path, keeps the run across a close and a reopen, and closes it', async () => {
    const file = join(folder, 'path.db');
    const first = new SqliteRunJournal({ path: file });
    await first.append(key, [numbered('a', 0), numbered('a', 1)], 0);
    first.close();
    expect(reasonOf(await failureOf(first.read(key)))).toBe('store-failure');
    const second = new SqliteRunJournal({ path: file });
    expect(await second.read(key)).toEqual([numbered('a', 0), numbered('a', 1)]);
    second.close();
  });

  it('leaves a given database open on close()', async () => {
    const db = database(':memory:');
    const journal = new SqliteRunJournal({ database: db });
    journal.close();
    expect(await journal.append(key, [numbered('a', 0)], 0)).toBe(1);
  });

  it('deletes expired runs: a few on each append, all on sweep()', async () => {
    const db = database(':memory:');
    let now = 0;
    const journal = new SqliteRunJournal({ database: db, ttlMs: 100, now: () => now });
    for (let i = 0; i < 20; i += 1) {
      await journal.append({ owner: 'o', runId: `r${i}` }, [numbered('a', i)], 0);
    }
    const rows = () =>
      db.prepare('SELECT count(*) AS n FROM rx_advisors_run_journal').pluck().get() as number;
    const runs = () =>
      db.prepare('SELECT count(*) AS n FROM rx_advisors_run_journal_runs').pluck().get() as number;
    now = 100;
    await journal.append(key, [numbered('live', 0)], 0);
    expect(rows()).toBe(13);
    expect(runs()).toBe(13);
    expect(await journal.sweep()).toBe(12);
    expect(rows()).toBe(1);
    expect(await journal.sweep()).toBe(0);
    expect(await journal.read(key)).toEqual([numbered('live', 0)]);
  });

  it('fails with store-failure, saying the database is locked, when another connection holds the write lock', async () => {
    const file = join(folder, 'locked.db');
    const journal = new SqliteRunJournal({ database: database(file, 0) });
    await journal.append(key, [numbered('a', 0)], 0);
    const holder = database(file);
    holder.exec('BEGIN IMMEDIATE');
    const error = await failureOf(journal.append(key, [numbered('a', 1)], 1));
    expect(error).toMatchObject({ reason: 'store-failure', runId: 'run-1' });
    expect((error as Error).message).toMatch(/locked by another connection/);
    holder.exec('ROLLBACK');
    expect(await journal.append(key, [numbered('a', 1)], 1)).toBe(2);
  });

  it('fails with store-failure on a file that is not a database', async () => {
    const file = join(folder, 'not-a-db.db');
    writeFileSync(file, 'this is not a SQLite database, just some text '.repeat(100));
    const journal = new SqliteRunJournal({ database: database(file) });
    const error = await failureOf(journal.read(key));
    expect(error).toMatchObject({ reason: 'store-failure' });
    expect((error as Error).message).toMatch(/not a SQLite database or is corrupt/);
  });

  it('keeps every append whole when two processes write one run at once, each in its order', async () => {
    const file = join(folder, 'two.db');
    await runTwoJournalWriters('sqlite', file, 'shared_runs', 25);
    const records = await new SqliteRunJournal({
      database: database(file),
      tableName: 'shared_runs',
    }).read({
      owner: 'owner',
      runId: 'shared',
    });
    expect(records).toHaveLength(100);
    const feedback = records.map((r) => (r.type === 'validation-retry' ? r.feedback : ''));
    for (let i = 0; i < 100; i += 2) {
      expect(feedback[i + 1]).toBe(
        feedback[i]?.replace(/-(\d+)$/, (_, n: string) => `-${Number(n) + 1000}`),
      );
    }
    for (const writer of ['one', 'two']) {
      expect(
        feedback.filter(
          (f) => new RegExp(`^${writer}-\\d+$`).test(f) && Number(f.split('-')[1]) < 1000,
        ),
      ).toEqual(Array.from({ length: 25 }, (_, i) => `${writer}-${i}`));
    }
  }, 120_000);
});

function reasonOf(error: unknown): string {
  expect(RunJournalError.isInstance(error)).toBe(true);
  return (error as RunJournalError).reason;
}
