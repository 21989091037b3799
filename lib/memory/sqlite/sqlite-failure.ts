import { sqliteFailureReason } from '../../sqlite/sqlite-failure-reason.js';
import { ChatMemoryError, type ChatMemoryOperation } from '../../errors/chat-memory-error.js';

/**
 * Turns a better-sqlite3 failure into a `ChatMemoryError` that says what happened and
 * what to do. Already-typed errors pass through.
 * @internal
 */
export function sqliteFailure(
  error: unknown,
  operation: ChatMemoryOperation,
  conversationId: string | undefined,
  databaseName: string,
): ChatMemoryError {
  if (ChatMemoryError.isInstance(error)) return error;
  const { code, reason } = sqliteFailureReason(error, databaseName, {
    subject: 'the repository',
    writing: 'store memory',
  });
  return new ChatMemoryError({
    operation,
    ...(conversationId === undefined ? {} : { conversationId }),
    ...(code === '' ? {} : { code }),
    reason,
    cause: error,
  });
}
