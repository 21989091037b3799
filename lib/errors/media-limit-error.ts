import { hasErrorMarker, RxAdvisorsError } from './rx-advisors-error.js';

const MARKER = Symbol.for('rx-advisors.error.MediaLimitError');

/**
 * Inline media (images and files given as base64, bytes or a `data:` URL) larger than a
 * limit: one part above `maxMediaPartBytes`, or all of a request's parts together above
 * `maxMediaRequestBytes`. Sizes are decoded bytes, measured from the base64 length before
 * anything is decoded; media by URL count nothing. Nothing was sent to the model.
 *
 * @example
 * ```ts
 * import { MediaLimitError } from 'rx-advisors';
 *
 * client.prompt().user('What is this?').call().content().subscribe({
 *   error: (error) => {
 *     if (MediaLimitError.isInstance(error)) console.log(error.scope, error.size, '>', error.limit);
 *   },
 * });
 * ```
 */
export class MediaLimitError extends RxAdvisorsError {
  /** `'part'`: one part is too large; `'request'`: all parts together are. */
  readonly scope: 'part' | 'request';
  /** The decoded size in bytes (of the part, or of every part so far). */
  readonly size: number;
  /** The limit it passed, in bytes. */
  readonly limit: number;
  /** The option that sets the limit. */
  readonly option: 'maxMediaPartBytes' | 'maxMediaRequestBytes';
  /** The part's media type (for `'part'`). */
  readonly mediaType: string | undefined;

  /** @param options What was too large, its size and the limit. */
  constructor(options: {
    scope: 'part' | 'request';
    size: number;
    limit: number;
    mediaType?: string | undefined;
  }) {
    const option = options.scope === 'part' ? 'maxMediaPartBytes' : 'maxMediaRequestBytes';
    const what =
      options.scope === 'part'
        ? `A media part (${options.mediaType ?? 'unknown type'}) of ${options.size} bytes`
        : `The request's inline media (at least ${options.size} bytes)`;
    super(
      `${what} is larger than ${option} (${options.limit} bytes). Send large files by URL, ` +
        `or raise ${option}.`,
    );
    Object.defineProperty(this, MARKER, { value: true });
    this.scope = options.scope;
    this.size = options.size;
    this.limit = options.limit;
    this.option = option;
    this.mediaType = options.mediaType;
  }

  /**
   * Whether `error` is a {@link MediaLimitError}, even from another copy of the package.
   * @param error Any value.
   * @returns `true` when `error` carries this class's marker.
   */
  static override isInstance(error: unknown): error is MediaLimitError {
    return hasErrorMarker(error, MARKER);
  }
}
