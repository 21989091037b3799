import type { Message } from '../core/message.js';
import { ChatMemoryError } from '../errors/chat-memory-error.js';
import { fromRow, type MessageRow } from './message-row.js';

/**
 * Rows of a SQL memory table (SQLite or PostgreSQL) back to messages, in order.
 * @internal
 * @param rows The rows read, in saved order.
 * @param where The table and the conversation, for the error.
 * @returns Their messages.
 * @throws ChatMemoryError (operation `read`) naming the first damaged row.
 */
export function decodeTableRows(
  rows: MessageRow[],
  where: { tableName: string; conversationId: string },
): Message[] {
  return rows.map((row, index) => {
    const message = fromRow(row);
    if (typeof message !== 'string') return message;
    throw new ChatMemoryError({
      operation: 'read',
      conversationId: where.conversationId,
      reason: `message ${index} in table ${where.tableName} is damaged (${message}); fix or delete the row.`,
    });
  });
}
