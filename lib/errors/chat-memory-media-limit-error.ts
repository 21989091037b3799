import { ChatMemoryError } from './chat-memory-error.js';
import { hasErrorMarker } from './rx-advisors-error.js';

const MARKER = Symbol.for('rx-advisors.error.ChatMemoryMediaLimitError');

/**
 * A message's inline images and files (`media` given as base64 or bytes) are larger than
 * the repository's `maxMediaBytes`, so the conversation was not written (nothing of it
 * changed). Media by URL count nothing: only the URL is stored. A `ChatMemoryError` too.
 *
 * @example
 * ```ts
 * import { ChatMemoryMediaLimitError } from 'rx-advisors';
 *
 * client.prompt('Read this').advisorParams({ conversationId: 'c1' }).call().content().subscribe({
 *   error: (error) => {
 *     if (ChatMemoryMediaLimitError.isInstance(error)) console.log(error.size, '>', error.limit);
 *   },
 * });
 * ```
 */
export class ChatMemoryMediaLimitError extends ChatMemoryError {
  /** The decoded size of the message's inline media, in bytes. */
  readonly size: number;
  /** The repository's `maxMediaBytes`. */
  readonly limit: number;
  /** The message's position in the conversation. */
  readonly position: number;

  /** @param options The conversation, the message's position, the size and the limit. */
  constructor(options: { conversationId: string; position: number; size: number; limit: number }) {
    super({
      operation: 'write',
      conversationId: options.conversationId,
      reason:
        `message ${options.position} carries ${options.size} bytes of inline media, more than ` +
        `maxMediaBytes (${options.limit}). Send large files by URL, or raise maxMediaBytes.`,
    });
    Object.defineProperty(this, MARKER, { value: true });
    this.size = options.size;
    this.limit = options.limit;
    this.position = options.position;
  }

  /**
   * Whether `error` is a {@link ChatMemoryMediaLimitError}, even from another copy of the package.
   * @param error Any value.
   * @returns `true` when `error` carries this class's marker.
   */
  static override isInstance(error: unknown): error is ChatMemoryMediaLimitError {
    return hasErrorMarker(error, MARKER);
  }
}
