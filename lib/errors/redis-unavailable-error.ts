import { hasErrorMarker, RxAdvisorsError } from './rx-advisors-error.js';

const MARKER = Symbol.for('rx-advisors.error.RedisUnavailableError');

/**
 * Redis did not answer a `RedisResumableStreamStore` command within the store's `readRetry`
 * (a server down, restarting or unreachable, whatever the client's offline queue does), or a
 * reader's connection kept failing that long. A failed append ends its stream (the model call
 * is stopped); readers get the protocol's `error` event with a fixed text. The client's own
 * error, when there was one, is the `cause`.
 *
 * @example
 * ```ts
 * import { RedisUnavailableError } from 'rx-advisors/sse/redis';
 * const isOutage = (error: unknown) => RedisUnavailableError.isInstance(error) && error.waited >= 1000;
 * ```
 */
export class RedisUnavailableError extends RxAdvisorsError {
  /** The command that got no answer (`EVALSHA`, `XREAD`, …). */
  readonly command: string;
  /** Milliseconds waited for Redis. */
  readonly waited: number;

  /** @param options The command, the time waited and the client's error, if any. */
  constructor(options: { command: string; waited: number; cause?: unknown }) {
    super(
      `Redis did not answer ${options.command} within ${options.waited} ms (readRetry): ` +
        'the server is down or unreachable.',
      options.cause === undefined ? {} : { cause: options.cause },
    );
    Object.defineProperty(this, MARKER, { value: true });
    this.command = options.command;
    this.waited = options.waited;
  }

  /**
   * Whether `error` is a {@link RedisUnavailableError}, even from another copy of the package.
   * @param error Any value.
   * @returns `true` when `error` carries this class's marker.
   */
  static override isInstance(error: unknown): error is RedisUnavailableError {
    return hasErrorMarker(error, MARKER);
  }
}
