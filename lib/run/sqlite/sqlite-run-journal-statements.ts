import type BetterSqlite3 from 'better-sqlite3';

/** A run's row: its record count and bytes, and when it expires (ms). */
interface RunRow {
  length: number;
  bytes: number;
  expires_at: number;
}

type Key = [owner: string, runId: string];

/**
 * The statements of `SqliteRunJournal`, prepared once per journal.
 * @internal
 */
export interface SqliteRunStatements {
  run: BetterSqlite3.Statement<Key, RunRow>;
  records: BetterSqlite3.Statement<Key, string>;
  insert: BetterSqlite3.Statement<[owner: string, runId: string, seq: number, record: string]>;
  upsert: BetterSqlite3.Statement<[owner: string, runId: string, ...RunRow[keyof RunRow][]]>;
  expired: BetterSqlite3.Statement<[now: number, limit: number], { owner: string; run_id: string }>;
  removeRecords: BetterSqlite3.Statement<Key>;
  removeRun: BetterSqlite3.Statement<Key>;
}

/**
 * Creates the journal's two tables when they are missing, switches a file database to
 * WAL (readers never wait for the writer), and prepares the statements. A run is one row
 * of `<table>_runs` (its length, bytes and expiry: the append's check reads one row) and
 * its records, one row each of `<table>`, keyed by (owner, run, seq), `WITHOUT ROWID`: one
 * b-tree, not a table and its key's index (fewer pages written per commit; a table made by
 * an older version keeps its rowid and works the same).
 * @internal
 * @param db The database, open.
 * @param tableName The records' table, a checked identifier.
 */
export function prepareRunStatements(
  db: BetterSqlite3.Database,
  tableName: string,
): SqliteRunStatements {
  const records = `"${tableName}"`;
  const runs = `"${tableName}_runs"`;
  if (!db.memory && !db.readonly) db.pragma('journal_mode = WAL');
  db.exec(`
    CREATE TABLE IF NOT EXISTS ${runs} (
      owner TEXT NOT NULL,
      run_id TEXT NOT NULL,
      length INTEGER NOT NULL,
      bytes INTEGER NOT NULL,
      expires_at INTEGER NOT NULL,
      PRIMARY KEY (owner, run_id)
    ) WITHOUT ROWID;
    CREATE INDEX IF NOT EXISTS "${tableName}_expires" ON ${runs} (expires_at);
    CREATE TABLE IF NOT EXISTS ${records} (
      owner TEXT NOT NULL,
      run_id TEXT NOT NULL,
      seq INTEGER NOT NULL,
      record TEXT NOT NULL,
      PRIMARY KEY (owner, run_id, seq)
    ) WITHOUT ROWID;`);
  const where = 'WHERE owner = ? AND run_id = ?';
  return {
    run: db.prepare(`SELECT length, bytes, expires_at FROM ${runs} ${where}`),
    records: db.prepare<Key, string>(`SELECT record FROM ${records} ${where} ORDER BY seq`).pluck(),
    insert: db.prepare(`INSERT INTO ${records} (owner, run_id, seq, record) VALUES (?, ?, ?, ?)`),
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
