import { hasErrorMarker } from './rx-advisors-error.js';
import { ProviderError } from './provider-error.js';

const MARKER = Symbol.for('rx-advisors.error.ProviderIdleTimeoutError');

/**
 * The fields of a {@link ProviderIdleTimeoutError}.
 * @example
 * ```ts
 * import { ProviderIdleTimeoutError, type ProviderIdleTimeoutErrorOptions } from 'rx-advisors';
 *
 * const options: ProviderIdleTimeoutErrorOptions = { provider: 'acme', idleTimeout: 30_000 };
 * const error = new ProviderIdleTimeoutError(options); // error.retryable === true
 * ```
 */
export interface ProviderIdleTimeoutErrorOptions {
  /** The provider, as in `ChatModel.provider`. */
  provider: string;
  /** The limit that was exceeded, in milliseconds (the model's `idleTimeout` option). */
  idleTimeout: number;
}

/**
 * A model call sent nothing for `idleTimeout` milliseconds (before its first event or
 * between two events), so it was aborted. Retryable: a `RetryAdvisor` tries it again.
 *
 * @example
 * ```ts
 * import { ProviderIdleTimeoutError } from 'rx-advisors';
 *
 * client.prompt('hi').call().content().subscribe({
 *   error: (error) => {
 *     if (ProviderIdleTimeoutError.isInstance(error)) console.log('stalled for', error.idleTimeout, 'ms');
 *   },
 * });
 * ```
 */
export class ProviderIdleTimeoutError extends ProviderError {
  /** The limit that was exceeded, in milliseconds. */
  readonly idleTimeout: number;

  /** @param options The provider and the limit. */
  constructor(options: ProviderIdleTimeoutErrorOptions) {
    super({
      provider: options.provider,
      message:
        `the model sent nothing for ${options.idleTimeout} ms, so the request was aborted; ` +
        'try again, or raise the model’s idleTimeout option if the model is slow to start',
      retryable: true,
    });
    Object.defineProperty(this, MARKER, { value: true });
    this.idleTimeout = options.idleTimeout;
  }

  /**
   * Whether `error` is a {@link ProviderIdleTimeoutError}, even from another copy of the package.
   * @param error Any value.
   * @returns `true` when `error` carries this class's marker.
   */
  static override isInstance(error: unknown): error is ProviderIdleTimeoutError {
    return hasErrorMarker(error, MARKER);
  }
}
