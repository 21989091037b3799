import { hasErrorMarker, RxAdvisorsError } from './rx-advisors-error.js';

const MARKER = Symbol.for('rx-advisors.error.ChatMemoryError');

/**
 * What a chat memory store was doing when it failed.
 * @example
 * ```ts
 * import type { ChatMemoryOperation } from 'rx-advisors';
 * const operation: ChatMemoryOperation = 'write';
 * ```
 */
export type ChatMemoryOperation = 'open' | 'read' | 'write' | 'delete' | 'list';

/**
 * The fields of a {@link ChatMemoryError}.
 * @example
 * ```ts
 * import { ChatMemoryError, type ChatMemoryErrorOptions } from 'rx-advisors';
 * const options: ChatMemoryErrorOptions = {
 *   operation: 'write',
 *   conversationId: 'c1',
 *   reason: 'the store is read-only.',
 * };
 * throw new ChatMemoryError(options);
 * ```
 */
export interface ChatMemoryErrorOptions {
  /** What the store was doing. */
  operation: ChatMemoryOperation;
  /** The conversation concerned, when there was one. */
  conversationId?: string;
  /** The store's error code (`'SQLITE_BUSY'`, `'SQLITE_CORRUPT'`, `'SQLITE_NOTADB'`…), when it has one. */
  code?: string;
  /** What went wrong and what to do about it. */
  reason: string;
  /** The store's own error. */
  cause?: unknown;
}

/**
 * A chat memory store failed: the database is locked by another connection, corrupt, not a
 * database at all, or could not be written. Carries the operation, the conversation and
 * the store's error code; the driver's error is the `cause`.
 *
 * @example
 * ```ts
 * import { ChatMemoryError } from 'rx-advisors';
 *
 * client.prompt('Hi').advisorParams({ conversationId: 'c1' }).call().content().subscribe({
 *   error: (error) => {
 *     if (ChatMemoryError.isInstance(error) && error.code === 'SQLITE_BUSY') console.log('try again');
 *   },
 * });
 * ```
 */
export class ChatMemoryError extends RxAdvisorsError {
  /** What the store was doing. */
  readonly operation: ChatMemoryOperation;
  /** The conversation concerned, when there was one. */
  readonly conversationId: string | undefined;
  /** The store's error code, when it has one. */
  readonly code: string | undefined;

  /** @param options Operation, conversation, code, reason and cause. */
  constructor(options: ChatMemoryErrorOptions) {
    const target =
      options.conversationId === undefined
        ? ''
        : ` conversation ${JSON.stringify(options.conversationId)}`;
    const code = options.code === undefined ? '' : ` (${options.code})`;
    super(`Chat memory could not ${options.operation}${target}${code}: ${options.reason}`, {
      cause: options.cause,
    });
    Object.defineProperty(this, MARKER, { value: true });
    this.operation = options.operation;
    this.conversationId = options.conversationId;
    this.code = options.code;
  }

  /**
   * Whether `error` is a {@link ChatMemoryError}, even from another copy of the package.
   * @param error Any value.
   * @returns `true` when `error` carries this class's marker.
   */
  static override isInstance(error: unknown): error is ChatMemoryError {
    return hasErrorMarker(error, MARKER);
  }
}
