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
  /** Every row of the conversation's window, in order. */
  select: BetterSqlite3.Transaction<(conversationId: string) => MessageRow[]>;
}

/**
 * How many rows before the window start an append leaves in place before it deletes them
 * all at once. Deleting the oldest rows on every append rewrote the leftmost B-tree pages
 * (SQLite rebalances a leaf a delete left underfull); moving the start writes the page
 * the append writes anyway (the newest row carries it).
 */
const TRIM_BATCH = 64;

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
 * Prepares the statements of the window. Each touches only the added rows, the dropped
 * ones and the index entries in between, or the rows it returns. A conversation's window
 * is its leading system rows and the rows from the `window_start` of its newest row (from
 * its first non-system row when that is null).
 * @internal
 * @param db The application's database (the tables exist, or it is read-only).
 * @param table The table name, quoted.
 * @param insert The row insert of the table.
 * @param maxMediaBytes The most inline media bytes one message may carry.
 * @param withStart Whether the table has `window_start` (a read-only one of an earlier
 *   version may not: it has no rows before the window).
 */
export function prepareSqliteWindow(
  db: BetterSqlite3.Database,
  table: string,
  insert: SqliteInsert,
  maxMediaBytes: number,
  withStart: boolean,
): SqliteWindow {
  const at = (sql: string) => db.prepare<[string, ...number[]], { position: number }>(sql);
  // Positions: saveAll writes 0…n-1 (a memory writes system messages first), append
  // writes after the last, and the trim deletes the oldest non-system ones: the
  // non-system rows are always one run of consecutive positions.
  const newestRow = db.prepare<[string], { position: number; start: number | null }>(
    `SELECT position, ${withStart ? 'window_start' : 'NULL'} AS start FROM ${table}
       WHERE conversation_id = ? ORDER BY position DESC LIMIT 1`,
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
  const setStart = withStart
    ? db.prepare<[number, string, number]>(
        `UPDATE ${table} SET window_start = ? WHERE conversation_id = ? AND position = ?`,
      )
    : undefined;
  const systemsBefore = prepareRows<[string, number]>(
    db,
    `SELECT ${ROW_COLUMNS} FROM ${table} WHERE conversation_id = ? AND position < ? ORDER BY position`,
  );
  const rowsFrom = prepareRows<[string, number]>(
    db,
    `SELECT ${ROW_COLUMNS} FROM ${table} WHERE conversation_id = ? AND position >= ? ORDER BY position`,
  );
  const newestFrom = prepareRows<[string, number, number]>(
    db,
    `SELECT ${ROW_COLUMNS} FROM ${table} WHERE conversation_id = ? AND position >= ?
       ORDER BY position DESC LIMIT ?`,
  );
  /** The first non-system row, and the first in the window (undefined: none). */
  const bounds = (id: string, start: number | null | undefined) => {
    const other = firstOther.get(id)?.position;
    if (other === undefined) return {};
    return { other, first: Math.max(other, start ?? other) };
  };
  const append = db.transaction(
    (conversationId: string, messages: readonly Message[], keepLast?: number) => {
      const newest = newestRow.get(conversationId);
      const last = newest?.position ?? -1;
      const now = Date.now();
      messages.forEach((message, index) => {
        const limits = { conversationId, position: index, maxMediaBytes };
        insert.run(conversationId, last + 1 + index, now, toRow(message, limits));
      });
      const end = last + messages.length;
      const { other = end + 1, first = end + 1 } = bounds(conversationId, newest?.start);
      const systems = countBefore.get(conversationId, other)?.n ?? 0;
      const from = appendTrimFrom(systems, end - first + 1, keepLast);
      const start =
        from === undefined
          ? first
          : (windowStart.get({ id: conversationId, cut: first + from, end: end + 1 })?.position ??
            end + 1);
      if (start <= other) return;
      // The newest row carries the start on. An emptied window is deleted at once: a
      // conversation without messages is not stored.
      if (
        setStart !== undefined &&
        start - other < Math.min(TRIM_BATCH, keepLast ?? 0) &&
        start <= end
      ) {
        // The page the insert wrote: no other page changes.
        setStart.run(start, conversationId, end);
      } else {
        dropRange.run(conversationId, other, start);
      }
    },
  );
  const findLast = db.transaction((conversationId: string, limit: number): MessageRow[] => {
    const { other, first } = bounds(conversationId, newestRow.get(conversationId)?.start);
    if (other === undefined || first === undefined) {
      return systemsBefore(conversationId, Number.MAX_SAFE_INTEGER);
    }
    const rows = systemsBefore(conversationId, other);
    if (limit === 0) return rows;
    const newest = newestFrom(conversationId, first, limit);
    for (let i = newest.length - 1; i >= 0; i--) rows.push(newest[i]);
    return rows;
  });
  const select = db.transaction((conversationId: string): MessageRow[] => {
    const { other, first } = bounds(conversationId, newestRow.get(conversationId)?.start);
    if (other === undefined || first === undefined || first === other) {
      return rowsFrom(conversationId, 0);
    }
    const rows = systemsBefore(conversationId, other);
    for (const row of rowsFrom(conversationId, first)) rows.push(row);
    return rows;
  });
  return { append, findLast, select };
}
