import { ChatMemoryError, type ChatMemoryOperation } from '../../errors/chat-memory-error.js';

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
  if (ChatMemoryError.isInstance(error)) return error;
  const code = errorCode(error);
  const message = error instanceof Error ? error.message : String(error);
  const advice = ADVICE[code.slice(0, 2)] ?? ADVICE[code] ?? 'Check the server and try again.';
  return new ChatMemoryError({
    operation,
    ...(conversationId === undefined ? {} : { conversationId }),
    ...(code === '' ? {} : { code }),
    reason:
      `PostgreSQL failed: ${message}. A write is one transaction: it was committed whole ` +
      `or not at all. ${advice}`,
    cause: error,
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

function errorCode(error: unknown): string {
  if (typeof error !== 'object' || error === null) return '';
  const code = (error as Record<string, unknown>)['code'];
  return typeof code === 'string' ? code : '';
}
