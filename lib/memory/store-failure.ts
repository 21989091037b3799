import type { ChatMemoryOperation } from '../errors/chat-memory-error.js';
import { ChatMemoryError } from '../errors/chat-memory-error.js';

/**
 * What a store says about one of its driver's failures: the driver's code (`''` when it
 * has none) and what went wrong and what to do.
 * @internal
 */
export interface StoreFailureText {
  readonly code: string;
  readonly reason: string;
}

/**
 * A chat memory store's failure as a `ChatMemoryError`: the one way every repository
 * (SQLite, PostgreSQL, Redis) maps what its driver threw; the texts stay beside each store
 * (`sqlite-failure.ts`, `postgres-failure.ts`, `redis-failure.ts`). An error that is already
 * a `ChatMemoryError` passes through.
 * @internal
 * @example
 * ```ts
 * // internal: not exported from 'rx-advisors'
 * storeFailure(error, { operation: 'write', conversationId: 'c1' }, () => ({
 *   code: 'E1',
 *   reason: 'the store failed. Try again.',
 * }));
 * ```
 * @param error What the driver threw.
 * @param where The operation and the conversation, when there is one.
 * @param describe The store's code and reason for `error`; not called for a pass-through.
 * @returns The typed error.
 */
export function storeFailure(
  error: unknown,
  where: { readonly operation: ChatMemoryOperation; readonly conversationId: string | undefined },
  describe: () => StoreFailureText,
): ChatMemoryError {
  if (ChatMemoryError.isInstance(error)) return error;
  const { code, reason } = describe();
  return new ChatMemoryError({
    operation: where.operation,
    ...(where.conversationId === undefined ? {} : { conversationId: where.conversationId }),
    ...(code === '' ? {} : { code }),
    reason,
    cause: error,
  });
}
