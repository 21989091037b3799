import type BetterSqlite3 from 'better-sqlite3';
import type { Message } from '../../core/message.js';
import { appendTrimFrom } from '../append-window.js';
import { toRow, type MessageRow } from '../message-row.js';

/**
 * Inserts one row: conversation, position, creation time, then the row's columns.
 * @internal
 */
export type SqliteInsert = BetterSqlite3.Statement<[string, number, number, MessageRow]>;

/**
 * The window operations of `SqliteChatMemoryRepository`, as transactions (not yet begun).
 * @internal
 */
export interface SqliteWindow {
  /** Adds messages after the last one, then trims to `keepLast` on a turn boundary. */
  append: BetterSqlite3.Transaction<
    (conversationId: string, messages: readonly Message[], keepLast?: number) => void
  >;
  /** The leading system rows and the newest `limit` rows after them, in order. */
  findLast: BetterSqlite3.Transaction<(conversationId: string, limit: number) => MessageRow[]>;
}

type Bounds = [conversationId: string, from: number, to: number];

/** The columns of a `MessageRow`, in the order {@link rowsOf} reads them. @internal */
export const ROW_COLUMNS =
  'role, content, tool_calls, reasoning, tool_call_id, tool_name, is_error, media';

/** A row as better-sqlite3's raw mode returns it: the {@link ROW_COLUMNS} in order. */
type RawRow = [
  string,
  string,
  string | null,
  string | null,
  string | null,
  string | null,
  number | null,
  string | null,
];

/**
 * Prepares a `SELECT` of the {@link ROW_COLUMNS} in raw mode: better-sqlite3 then hands
 * each row over as an array instead of setting eight named properties one by one, and
 * the read of a long window costs about half (10,000 rows: 50 → 25 ms).
 * @internal
 */
export function prepareRows<P extends unknown[]>(
  db: BetterSqlite3.Database,
  sql: string,
): (...params: P) => MessageRow[] {
  const statement = db.prepare<P, RawRow>(sql).raw(true);
  return (...params) => statement.all(...params).map(rowOf);
}

function rowOf(raw: RawRow): MessageRow {
  return {
    role: raw[0],
    content: raw[1],
    tool_calls: raw[2],
    reasoning: raw[3],
    tool_call_id: raw[4],
    tool_name: raw[5],
    is_error: raw[6],
    media: raw[7],
  };
}

interface Cut {
  id: string;
  cut: number;
  end: number;
}

/**
 * Prepares the statements of `append` and `findLast`. Each touches only the added rows,
 * the dropped ones and the index entries in between, or the rows it returns.
 * @internal
 * @param db The application's database (the table exists).
 * @param table The table name, quoted.
 * @param insert The row insert of the table.
 * @param maxMediaBytes The most inline media bytes one message may carry.
 */
export function prepareSqliteWindow(
  db: BetterSqlite3.Database,
  table: string,
  insert: SqliteInsert,
  maxMediaBytes: number,
): SqliteWindow {
  const at = (sql: string) => db.prepare<[string, ...number[]], { position: number }>(sql);
  // Positions: saveAll writes 0…n-1 (a memory writes system messages first), append
  // writes after the last, and the trim deletes the oldest non-system ones: the
  // non-system rows are always one run of consecutive positions.
  const lastPosition = at(
    `SELECT max(position) AS position FROM ${table} WHERE conversation_id = ?`,
  );
  const firstOther = at(
    `SELECT position FROM ${table} WHERE conversation_id = ? AND role <> 'system'
       ORDER BY position LIMIT 1`,
  );
  const countBefore = db.prepare<[string, number], { n: number }>(
    `SELECT count(*) AS n FROM ${table} WHERE conversation_id = ? AND position < ?`,
  );
  // The window's first message: a user message at or after the cut, else one that is
  // not a tool result, else none (the end). Each is one index range scan from the cut.
  const windowStart = db.prepare<[Cut], { position: number }>(
    `SELECT coalesce(
         (SELECT position FROM ${table} WHERE conversation_id = @id AND position >= @cut
            AND role = 'user' ORDER BY position LIMIT 1),
         (SELECT position FROM ${table} WHERE conversation_id = @id AND position >= @cut
            AND role <> 'tool' ORDER BY position LIMIT 1),
         @end) AS position`,
  );
  const dropRange = db.prepare<Bounds>(
    `DELETE FROM ${table} WHERE conversation_id = ? AND position >= ? AND position < ?`,
  );
  const systemsBefore = prepareRows<[string, number]>(
    db,
    `SELECT ${ROW_COLUMNS} FROM ${table} WHERE conversation_id = ? AND position < ? ORDER BY position`,
  );
  const newestFrom = prepareRows<[string, number, number]>(
    db,
    `SELECT ${ROW_COLUMNS} FROM ${table} WHERE conversation_id = ? AND position >= ?
       ORDER BY position DESC LIMIT ?`,
  );
  const append = db.transaction(
    (conversationId: string, messages: readonly Message[], keepLast?: number) => {
      const last = lastPosition.get(conversationId)?.position ?? -1;
      const now = Date.now();
      messages.forEach((message, index) => {
        const limits = { conversationId, position: index, maxMediaBytes };
        insert.run(conversationId, last + 1 + index, now, toRow(message, limits));
      });
      const end = last + messages.length;
      const first = firstOther.get(conversationId)?.position ?? end + 1;
      const systems = countBefore.get(conversationId, first)?.n ?? 0;
      const from = appendTrimFrom(systems, end - first + 1, keepLast);
      if (from === undefined) return;
      const start =
        windowStart.get({ id: conversationId, cut: first + from, end: end + 1 })?.position ??
        end + 1;
      dropRange.run(conversationId, first, start);
    },
  );
  const findLast = db.transaction((conversationId: string, limit: number): MessageRow[] => {
    const first = firstOther.get(conversationId)?.position;
    if (first === undefined) return systemsBefore(conversationId, Number.MAX_SAFE_INTEGER);
    const rows = systemsBefore(conversationId, first);
    if (limit === 0) return rows;
    const newest = newestFrom(conversationId, first, limit);
    for (let i = newest.length - 1; i >= 0; i--) rows.push(newest[i]);
    return rows;
  });
  return { append, findLast };
}
