import type BetterSqlite3 from 'better-sqlite3';
import { setUpSqlite } from '../../sqlite/set-up-sqlite.js';

/**
 * Creates the memory table when it is missing (keyed by conversation and position,
 * `WITHOUT ROWID`: the primary key is the table), adds the columns a table of an earlier
 * version lacks, and switches a file database to WAL (readers never wait for the writer);
 * retried while another process sets the same file up (`setUpSqlite`).
 * @internal
 * @param db The application's database.
 * @param table The table name, quoted.
 * @returns Whether the table has the `window_start` column (a read-only one may not).
 */
export function createSqliteTable(db: BetterSqlite3.Database, table: string): boolean {
  return setUpSqlite(db, () => {
    createTable(db, table);
    return addColumns(db, table);
  });
}

function createTable(db: BetterSqlite3.Database, table: string): void {
  db.exec(
    `CREATE TABLE IF NOT EXISTS ${table} (
        conversation_id TEXT NOT NULL,
        position INTEGER NOT NULL,
        role TEXT NOT NULL CHECK (role IN ('system', 'user', 'assistant', 'tool')),
        content TEXT NOT NULL,
        tool_calls TEXT,
        reasoning TEXT,
        tool_call_id TEXT,
        tool_name TEXT,
        is_error INTEGER,
        media TEXT,
        window_start INTEGER,
        created_at INTEGER NOT NULL,
        PRIMARY KEY (conversation_id, position)
      ) WITHOUT ROWID`,
  );
}

/**
 * Adds the columns tables of earlier versions lack: `media` (media were not stored) and
 * `window_start` (the newest row of a conversation carries the first non-system position
 * still in its window: an append trims by moving it, and deletes the rows before it in
 * batches, see sqlite-window.ts; a row without it has no rows before it). A read-only
 * database is left as it is: without `media` it fails on the first query that needs it;
 * without `window_start` it is read as it is.
 * @returns Whether the table has `window_start`.
 */
function addColumns(db: BetterSqlite3.Database, table: string): boolean {
  const columns = db.prepare<[], { name: string }>(`PRAGMA table_info(${table})`).all();
  const has = (name: string) => columns.some((column) => column.name === name);
  if (db.readonly) return has('window_start');
  if (!has('media')) db.exec(`ALTER TABLE ${table} ADD COLUMN media TEXT`);
  if (!has('window_start')) db.exec(`ALTER TABLE ${table} ADD COLUMN window_start INTEGER`);
  return true;
}
