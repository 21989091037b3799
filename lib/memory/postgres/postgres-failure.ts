import type { ChatMemoryError, ChatMemoryOperation } from '../../errors/chat-memory-error.js';
import { errorCodeOf, errorMessageOf } from '../../errors/error-details.js';
import { storeFailure } from '../store-failure.js';

/**
 * Turns a `pg` failure into a `ChatMemoryError` that says what happened and what to do.
 * Already-typed errors pass through.
 * @internal
 */
export function postgresFailure(
  error: unknown,
  operation: ChatMemoryOperation,
  conversationId: string | undefined,
): ChatMemoryError {
  return storeFailure(error, { operation, conversationId }, () => {
    const code = errorCodeOf(error);
    const advice = ADVICE[code.slice(0, 2)] ?? ADVICE[code] ?? 'Check the server and try again.';
    return {
      code,
      reason:
        `PostgreSQL failed: ${errorMessageOf(error)}. A write is one transaction: it was ` +
        `committed whole or not at all. ${advice}`,
    };
  });
}

/** By SQLSTATE class (two characters) or Node error code. */
const ADVICE: Record<string, string> = {
  '08': 'The connection failed: check that the server is up; the pool reconnects by itself.',
  '57': 'The server is shutting down or restarting: try again in a moment.',
  '53': 'The server is out of resources (connections, disk, memory).',
  '42': 'The table is missing or differs: let the repository create it, or run its schema (PostgresChatMemoryRepository.schemaSql).',
  '23': 'A row broke a constraint: a message with an unknown role?',
  '22': 'A value was rejected (text with a NUL character?).',
  ECONNREFUSED: 'Nothing listens at the address: check that the server is up.',
  ECONNRESET: 'The server dropped the connection: try again; the pool reconnects by itself.',
};
