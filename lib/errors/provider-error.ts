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
 *     if (ProviderError.isInstance(error) && error.retryable) console.log('try again later', error.status);
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

  /** @param options Provider, message, status, retryable and cause. */
  constructor(options: ProviderErrorOptions) {
    super(`${options.provider}: ${options.message}`, { cause: options.cause });
    Object.defineProperty(this, MARKER, { value: true });
    this.provider = options.provider;
    this.status = options.status;
    this.retryable = options.retryable ?? false;
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
