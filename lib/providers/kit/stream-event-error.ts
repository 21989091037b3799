/**
 * An error event a translator found in a stream (shaped like the SDKs' own mid-stream
 * errors, `error: { type, message }`), turned into a ProviderError by `toProviderError`
 * so that it gets the same retry classification and key redaction: retryable when the
 * type is one of the transient ones (`overloaded_error`, `rate_limit_error`,
 * `server_error`, `timeout_error`, `incomplete_stream`, …).
 *
 * @example
 * ```ts
 * import { StreamEventError } from 'rx-advisors/provider-kit';
 *
 * // In a translator's `end`, when the stream stopped before its final event:
 * throw new StreamEventError('incomplete_stream', 'the stream ended early', undefined);
 * ```
 */
export class StreamEventError extends Error {
  /** The provider's error type or code and message. */
  readonly error: { type: string; message: string };

  /**
   * @param type The provider's error type or code.
   * @param message The provider's message.
   * @param event The event that carried it, kept as `cause`.
   */
  constructor(type: string, message: string, event: unknown) {
    super(`${type}: ${message}`, { cause: event });
    this.name = 'StreamEventError';
    this.error = { type, message };
  }
}
