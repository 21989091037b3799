import { hasErrorMarker, RxAdvisorsError } from './rx-advisors-error.js';

const MARKER = Symbol.for('rx-advisors.error.ProviderError');

/** The fields of a {@link ProviderError}. */
export interface ProviderErrorOptions {
  /** The provider, as in `ChatModel.provider` (`'openai'`, `'anthropic'`, `'mock'`…). */
  provider: string;
  /** A message that names what failed; never contains an API key. */
  message: string;
  /** The HTTP status, when the provider answered with one. */
  status?: number;
  /** Whether trying again later may succeed (429, 5xx, connection resets). */
  retryable?: boolean;
  /**
   * How long the provider asked to wait before trying again, in milliseconds (from the
   * `retry-after-ms` or `retry-after` response header). Anything but a finite number of at least 0 is dropped.
   */
  retryAfter?: number;
  /** The SDK's own error. */
  cause?: unknown;
}

/**
 * A model call failed: an HTTP error, a dropped connection, a mid-stream error event
 * or malformed stream data. `retryable` tells a `RetryAdvisor` whether to try again.
 *
 * @example
 * ```ts
 * import { ProviderError } from 'rx-advisors';
 *
 * client.prompt('hi').call().content().subscribe({
 *   error: (error) => {
 *     if (ProviderError.isInstance(error) && error.retryable) {
 *       console.log('try again in', error.retryAfter ?? 'a while', 'ms; HTTP', error.status);
 *     }
 *   },
 * });
 * ```
 */
export class ProviderError extends RxAdvisorsError {
  /** The provider that failed. */
  readonly provider: string;
  /** The HTTP status, when there was one. */
  readonly status: number | undefined;
  /** Whether a retry may succeed. */
  readonly retryable: boolean;
  /**
   * Milliseconds the provider asked to wait before a retry (its `retry-after-ms` or
   * `retry-after` header); `undefined` when it did not say. `RetryAdvisor` waits at least this long.
   */
  readonly retryAfter: number | undefined;

  /** @param options Provider, message, status, retryable, retryAfter and cause. */
  constructor(options: ProviderErrorOptions) {
    super(`${options.provider}: ${options.message}`, { cause: options.cause });
    Object.defineProperty(this, MARKER, { value: true });
    this.provider = options.provider;
    this.status = options.status;
    this.retryable = options.retryable ?? false;
    const { retryAfter } = options;
    this.retryAfter =
      typeof retryAfter === 'number' && Number.isFinite(retryAfter) && retryAfter >= 0
        ? retryAfter
        : undefined;
  }

  /**
   * Whether `error` is a {@link ProviderError}, even from another copy of the package.
   * @param error Any value.
   * @returns `true` when `error` carries this class's marker.
   */
  static override isInstance(error: unknown): error is ProviderError {
    return hasErrorMarker(error, MARKER);
  }
}
