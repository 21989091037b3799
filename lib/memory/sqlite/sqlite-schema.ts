import type BetterSqlite3 from 'better-sqlite3';

/**
 * Creates the memory table when it is missing (keyed by conversation and position,
 * `WITHOUT ROWID`: the primary key is the table) and its table of window starts, adds the
 * `media` column to a table of an earlier version, and switches a file database to WAL
 * (readers never wait for the writer).
 * @internal
 * @param db The application's database.
 * @param table The table name, quoted.
 */
export function createSqliteTable(db: BetterSqlite3.Database, table: string): void {
  if (!db.memory && !db.readonly) db.pragma('journal_mode = WAL');
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
        created_at INTEGER NOT NULL,
        PRIMARY KEY (conversation_id, position)
      ) WITHOUT ROWID`,
  );
  addMediaColumn(db, table);
  if (db.readonly) return;
  db.exec(`CREATE TABLE IF NOT EXISTS ${startTable(table)} (
      conversation_id TEXT NOT NULL PRIMARY KEY,
      start INTEGER NOT NULL
    ) WITHOUT ROWID`);
}

/**
 * The table of window starts next to the memory table `table` (quoted): per conversation,
 * the first non-system position still in its window. An append trims by moving the start;
 * the rows before it are deleted in batches (see sqlite-window.ts). A conversation
 * without a start (all of them in a table of an earlier version) has no rows before it.
 * @internal
 */
export function startTable(table: string): string {
  return `"${table.slice(1, -1)}_start"`;
}

/** Whether the table of window starts exists (a read-only database of an earlier version has none). @internal */
export function hasStartTable(db: BetterSqlite3.Database, table: string): boolean {
  const name = startTable(table).slice(1, -1);
  return (
    db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?`).get(name) !==
    undefined
  );
}

/**
 * Tables created before media were stored lack the `media` column: it is added (a
 * read-only database is left as it is, and fails on the first query that needs it).
 */
function addMediaColumn(db: BetterSqlite3.Database, table: string): void {
  const columns = db.prepare<[], { name: string }>(`PRAGMA table_info(${table})`).all();
  if (db.readonly || columns.some((column) => column.name === 'media')) return;
  db.exec(`ALTER TABLE ${table} ADD COLUMN media TEXT`);
}
