import type { ChatMemoryError, ChatMemoryOperation } from '../../errors/chat-memory-error.js';
import { errorCodeOf, errorMessageOf } from '../../errors/error-details.js';
import { storeFailure } from '../store-failure.js';

/**
 * Turns a Redis client failure into a `ChatMemoryError` that says what happened and what
 * to do. Already-typed errors pass through.
 * @internal
 */
export function redisFailure(
  error: unknown,
  operation: ChatMemoryOperation,
  conversationId: string | undefined,
): ChatMemoryError {
  return storeFailure(error, { operation, conversationId }, () => ({
    code: errorCodeOf(error) || connectionErrorName(error),
    reason:
      `Redis failed: ${errorMessageOf(error)}. A write is one atomic script: it was applied ` +
      `whole or not at all. Check that the server is up and the client connected, then try again.`,
  }));
}

/** node-redis names its connection errors (ClientClosedError, SocketClosedUnexpectedlyError…). */
function connectionErrorName(error: unknown): string {
  if (typeof error !== 'object' || error === null) return '';
  const name = (error as Record<string, unknown>)['name'];
  return typeof name === 'string' && name !== 'Error' ? name : '';
}
