import { ChatMemoryError, type ChatMemoryOperation } from '../../errors/chat-memory-error.js';

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
  if (ChatMemoryError.isInstance(error)) return error;
  const code = errorCode(error);
  const message = error instanceof Error ? error.message : String(error);
  return new ChatMemoryError({
    operation,
    ...(conversationId === undefined ? {} : { conversationId }),
    ...(code === '' ? {} : { code }),
    reason:
      `Redis failed: ${message}. A write is one atomic script: it was applied whole or not ` +
      `at all. Check that the server is up and the client connected, then try again.`,
    cause: error,
  });
}

function errorCode(error: unknown): string {
  if (typeof error !== 'object' || error === null) return '';
  const record = error as Record<string, unknown>;
  if (typeof record['code'] === 'string') return record['code'];
  // node-redis names its connection errors (ClientClosedError, SocketClosedUnexpectedlyError…).
  return typeof record['name'] === 'string' && record['name'] !== 'Error' ? record['name'] : '';
}
