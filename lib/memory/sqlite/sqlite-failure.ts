import type { ChatMemoryError, ChatMemoryOperation } from '../../errors/chat-memory-error.js';
import { sqliteFailureReason } from '../../sqlite/sqlite-failure-reason.js';
import { storeFailure } from '../store-failure.js';

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
  return storeFailure(error, { operation, conversationId }, () =>
    sqliteFailureReason(error, databaseName, {
      subject: 'the repository',
      writing: 'store memory',
    }),
  );
}
