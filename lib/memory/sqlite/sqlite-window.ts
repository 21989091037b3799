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
  const columns = `role, content, tool_calls, reasoning, tool_call_id, tool_name, is_error, media`;
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
  const systemsBefore = db.prepare<[string, number], MessageRow>(
    `SELECT ${columns} FROM ${table} WHERE conversation_id = ? AND position < ? ORDER BY position`,
  );
  const newestFrom = db.prepare<[string, number, number], MessageRow>(
    `SELECT ${columns} FROM ${table} WHERE conversation_id = ? AND position >= ?
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
    if (first === undefined) return systemsBefore.all(conversationId, Number.MAX_SAFE_INTEGER);
    const newest = limit === 0 ? [] : newestFrom.all(conversationId, first, limit).reverse();
    return [...systemsBefore.all(conversationId, first), ...newest];
  });
  return { append, findLast };
}
