import type BetterSqlite3 from 'better-sqlite3';
import { setUpSqlite } from '../../sqlite/set-up-sqlite.js';

/** A run's row: its record count and bytes, and when it expires (ms), as of its last refresh. */
export interface RunRow {
  length: number;
  bytes: number;
  expires_at: number;
}

/**
 * A run's last record: its `seq`, the run's bytes through it and the run's expiry (ms) as of
 * its append (`null` in a row an older version wrote: its run's row then has them).
 */
export interface TailRow {
  seq: number;
  run_bytes: number | null;
  expires_at: number | null;
}

type Key = [owner: string, runId: string];

/**
 * The statements of `SqliteRunJournal`, prepared once per journal.
 * @internal
 */
export interface SqliteRunStatements {
  run: BetterSqlite3.Statement<Key, RunRow>;
  tail: BetterSqlite3.Statement<Key, TailRow>;
  records: BetterSqlite3.Statement<Key, string>;
  insert: BetterSqlite3.Statement<
    [owner: string, runId: string, seq: number, record: string, runBytes: number, expiresAt: number]
  >;
  upsert: BetterSqlite3.Statement<[owner: string, runId: string, ...RunRow[keyof RunRow][]]>;
  expired: BetterSqlite3.Statement<[now: number, limit: number], { owner: string; run_id: string }>;
  removeRecords: BetterSqlite3.Statement<Key>;
  removeRun: BetterSqlite3.Statement<Key>;
}

/**
 * Creates the journal's tables when they are missing, switches a file database to WAL
 * (readers never wait for the writer), and prepares the statements, retried while another
 * process sets the same file up (`setUpSqlite`). The records' table is
 * a rowid table in append order with a unique index on (owner, run, seq): an append adds
 * its rows at the table's end (a new page when the last one is full, nothing rebalanced)
 * and one small index entry, whatever other runs are being written. Each record row holds
 * its run's bytes through it and the run's expiry, so an append reads the run's last row
 * and writes no other: the run's row of `<table>_runs` (indexed by `expires_at`, for the
 * sweep) is written when the run starts and then at most once per refresh interval. A
 * records table made by an older version (`WITHOUT ROWID`, without the two columns) gets
 * the columns added and works the same.
 * @internal
 * @param db The database, open.
 * @param tableName The records' table, a checked identifier.
 * @param synchronous The connection's `synchronous` pragma to set, if any.
 */
export function prepareRunStatements(
  db: BetterSqlite3.Database,
  tableName: string,
  synchronous: 'FULL' | 'NORMAL' | undefined,
): SqliteRunStatements {
  if (synchronous !== undefined) db.pragma(`synchronous = ${synchronous}`);
  return setUpSqlite(db, () => {
    createTables(db, tableName);
    return prepare(db, tableName);
  });
}

/** The runs' table and the records' table, made when missing. */
function createTables(db: BetterSqlite3.Database, tableName: string): void {
  const runs = `"${tableName}_runs"`;
  db.exec(`
    CREATE TABLE IF NOT EXISTS ${runs} (
      owner TEXT NOT NULL,
      run_id TEXT NOT NULL,
      length INTEGER NOT NULL,
      bytes INTEGER NOT NULL,
      expires_at INTEGER NOT NULL,
      PRIMARY KEY (owner, run_id)
    ) WITHOUT ROWID;
    CREATE INDEX IF NOT EXISTS "${tableName}_expires" ON ${runs} (expires_at);`);
  createRecordsTable(db, tableName);
}

/** The journal's statements. */
function prepare(db: BetterSqlite3.Database, tableName: string): SqliteRunStatements {
  const records = `"${tableName}"`;
  const runs = `"${tableName}_runs"`;
  const where = 'WHERE owner = ? AND run_id = ?';
  return {
    run: db.prepare(`SELECT length, bytes, expires_at FROM ${runs} ${where}`),
    tail: db.prepare(
      `SELECT seq, run_bytes, expires_at FROM ${records} ${where} ORDER BY seq DESC LIMIT 1`,
    ),
    records: db.prepare<Key, string>(`SELECT record FROM ${records} ${where} ORDER BY seq`).pluck(),
    insert: db.prepare(
      `INSERT INTO ${records} (owner, run_id, seq, record, run_bytes, expires_at)
         VALUES (?, ?, ?, ?, ?, ?)`,
    ),
    upsert: db.prepare(
      `INSERT INTO ${runs} (owner, run_id, length, bytes, expires_at) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (owner, run_id) DO UPDATE SET length = excluded.length,
           bytes = excluded.bytes, expires_at = excluded.expires_at`,
    ),
    expired: db.prepare(`SELECT owner, run_id FROM ${runs} WHERE expires_at <= ? LIMIT ?`),
    removeRecords: db.prepare(`DELETE FROM ${records} ${where}`),
    removeRun: db.prepare(`DELETE FROM ${runs} ${where}`),
  };
}

/**
 * The records' table: made new, or an older version's given the columns it lacks (under the
 * write lock, looked at again there: another process may be doing the same).
 */
function createRecordsTable(db: BetterSqlite3.Database, tableName: string): void {
  const columns = db.prepare<[string], string>('SELECT name FROM pragma_table_info(?)').pluck();
  const missing = () => REQUIRED.filter((c) => !columns.all(tableName).includes(c));
  if (missing().length === 0) return;
  const records = `"${tableName}"`;
  db.transaction(() => {
    const lacking = missing();
    if (lacking.length === REQUIRED.length) {
      db.exec(`
        CREATE TABLE ${records} (
          id INTEGER PRIMARY KEY,
          owner TEXT NOT NULL,
          run_id TEXT NOT NULL,
          seq INTEGER NOT NULL,
          record TEXT NOT NULL,
          run_bytes INTEGER,
          expires_at INTEGER
        );
        CREATE UNIQUE INDEX "${tableName}_key" ON ${records} (owner, run_id, seq);`);
    } else {
      for (const column of lacking) db.exec(`ALTER TABLE ${records} ADD COLUMN ${column} INTEGER`);
    }
  }).immediate();
}

/** The records table's columns (the last two added after its first version). */
const REQUIRED = ['owner', 'run_id', 'seq', 'record', 'run_bytes', 'expires_at'];
