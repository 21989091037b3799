import type BetterSqlite3 from 'better-sqlite3';
import type { Message } from '../../core/message.js';
import { toRow, type MessageRow } from '../message-row.js';
import { createSqliteTable } from './sqlite-schema.js';
import { prepareSqliteWindow, type SqliteInsert } from './sqlite-window.js';

/**
 * Everything `SqliteChatMemoryRepository` runs, prepared once per repository.
 * @internal
 */
export interface SqliteStatements {
  ids: BetterSqlite3.Statement<[], { conversation_id: string }>;
  select: (conversationId: string) => MessageRow[];
  remove: (conversationId: string) => void;
  replace: (conversationId: string, messages: readonly Message[]) => void;
  append: (conversationId: string, messages: readonly Message[], keepLast?: number) => void;
  findLast: (conversationId: string, limit: number) => MessageRow[];
}

/**
 * Creates the table if needed and prepares the statements on it. Throws (a locked,
 * corrupt or read-only database) before returning anything.
 * @internal
 * @param db The application's database, open.
 * @param tableName The table, a checked SQL identifier.
 * @param maxMediaBytes The most inline media bytes one message may carry.
 */
export function prepareSqliteStatements(
  db: BetterSqlite3.Database,
  tableName: string,
  maxMediaBytes: number,
): SqliteStatements {
  const table = `"${tableName}"`;
  const withStart = createSqliteTable(db, table);
  const deleteRows = db.prepare<[string]>(`DELETE FROM ${table} WHERE conversation_id = ?`);
  const insert: SqliteInsert = db.prepare<[string, number, number, MessageRow]>(
    `INSERT INTO ${table} (conversation_id, position, created_at, role, content, tool_calls,
         reasoning, tool_call_id, tool_name, is_error, media)
       VALUES (?, ?, ?, @role, @content, @tool_calls, @reasoning, @tool_call_id, @tool_name,
         @is_error, @media)`,
  );
  const window = prepareSqliteWindow(db, table, insert, maxMediaBytes, withStart);
  const replace = db.transaction((conversationId: string, messages: readonly Message[]) => {
    deleteRows.run(conversationId);
    const now = Date.now();
    messages.forEach((message, position) => {
      const limits = { conversationId, position, maxMediaBytes };
      insert.run(conversationId, position, now, toRow(message, limits));
    });
  });
  return {
    ids: db.prepare<[], { conversation_id: string }>(
      `SELECT DISTINCT conversation_id FROM ${table} ORDER BY conversation_id`,
    ),
    // One read transaction: the system rows and the window from the same snapshot.
    select: (conversationId) => window.select.deferred(conversationId),
    remove: (conversationId) => void deleteRows.run(conversationId),
    // IMMEDIATE takes the write lock up front, so a busy database fails before any change.
    replace: (conversationId, messages) => replace.immediate(conversationId, messages),
    append: (conversationId, messages, keepLast) =>
      window.append.immediate(conversationId, messages, keepLast),
    // One read transaction: the system rows and the newest ones from the same snapshot.
    findLast: (conversationId, limit) => window.findLast.deferred(conversationId, limit),
  };
}
