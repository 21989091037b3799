import { hasErrorMarker, RxAdvisorsError } from './rx-advisors-error.js';

const MARKER = Symbol.for('rx-advisors.error.SlowClientError');

/**
 * An SSE client read too slowly: more than `maxPendingFrames` frames or `maxPendingBytes`
 * characters were held for it, or its connection stayed unwritable past `writeTimeout`. The
 * connection is ended and the chunks unsubscribed (a `toWebResponse` body errors with this;
 * `pipeToNodeResponse` destroys the socket).
 *
 * @example
 * ```ts
 * import { SlowClientError } from 'rx-advisors/sse';
 * const isSlow = (error: unknown) => SlowClientError.isInstance(error) && error.limit === 'writeTimeout';
 * ```
 */
export class SlowClientError extends RxAdvisorsError {
  /** The option whose bound was passed. */
  readonly limit: 'maxPendingFrames' | 'maxPendingBytes' | 'writeTimeout';
  /** Its value. */
  readonly value: number;

  /** @param options The limit that was passed and its value. */
  constructor(options: {
    limit: 'maxPendingFrames' | 'maxPendingBytes' | 'writeTimeout';
    value: number;
  }) {
    super(
      options.limit === 'writeTimeout'
        ? `The client's connection stayed unwritable for ${options.value} ms (writeTimeout); it was ended.`
        : `The client fell more than ${options.value} ${options.limit === 'maxPendingFrames' ? 'frames' : 'characters'} behind (${options.limit}); it was disconnected.`,
    );
    Object.defineProperty(this, MARKER, { value: true });
    this.limit = options.limit;
    this.value = options.value;
  }

  /**
   * Whether `error` is a {@link SlowClientError}, even from another copy of the package.
   * @param error Any value.
   * @returns `true` when `error` carries this class's marker.
   */
  static override isInstance(error: unknown): error is SlowClientError {
    return hasErrorMarker(error, MARKER);
  }
}
