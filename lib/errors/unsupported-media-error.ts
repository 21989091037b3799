import { hasErrorMarker, RxAdvisorsError } from './rx-advisors-error.js';

const MARKER = Symbol.for('rx-advisors.error.UnsupportedMediaError');

/**
 * A message carries an image or a file (a `MediaPart`) that the provider cannot take: a
 * media type it does not accept, a URL where it needs the bytes, media in a tool result
 * where the API allows only text, or a part that is not well formed. Raised before the
 * request is sent; nothing is dropped silently.
 *
 * @example
 * ```ts
 * import { UnsupportedMediaError } from 'rx-advisors';
 *
 * client.prompt('Read this').call().content().subscribe({
 *   error: (error) => {
 *     if (UnsupportedMediaError.isInstance(error)) console.log(error.provider, error.mediaType, error.reason);
 *   },
 * });
 * ```
 */
export class UnsupportedMediaError extends RxAdvisorsError {
  /** The adapter that refused the part: `'openai-chat-completions'`, `'openai-responses'`, `'anthropic'`, or the AI SDK bridge's provider name. */
  readonly provider: string;
  /** The part's media type as given. */
  readonly mediaType: string;
  /** Where the part was: a user message or a tool result. */
  readonly role: 'user' | 'tool';
  /** What is wrong and what to do instead. */
  readonly reason: string;

  /** @param options The adapter, the media type, the message role and the reason. */
  constructor(options: {
    provider: string;
    mediaType: string;
    role: 'user' | 'tool';
    reason: string;
  }) {
    super(
      `${options.provider} cannot take the ${JSON.stringify(options.mediaType)} part of a ${options.role} message: ${options.reason}`,
    );
    Object.defineProperty(this, MARKER, { value: true });
    this.provider = options.provider;
    this.mediaType = options.mediaType;
    this.role = options.role;
    this.reason = options.reason;
  }

  /**
   * Whether `error` is an {@link UnsupportedMediaError}, even from another copy of the package.
   * @param error Any value.
   * @returns `true` when `error` carries this class's marker.
   */
  static override isInstance(error: unknown): error is UnsupportedMediaError {
    return hasErrorMarker(error, MARKER);
  }
}
