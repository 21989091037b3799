/**
 * Thrown by a stream translator when an event breaks the provider's protocol (a value
 * of the wrong type or range). `toProviderError` turns it into a non-retryable
 * `ProviderProtocolError` that names the provider.
 *
 * @example
 * ```ts
 * import { StreamDataError } from 'rx-advisors/provider-kit';
 *
 * function readRole(value: unknown): 'assistant' {
 *   if (value !== 'assistant') throw new StreamDataError('delta.role', value, "'assistant'");
 *   return value;
 * }
 * ```
 */
export class StreamDataError extends Error {
  /** Where the bad value was, e.g. `'choices[0].delta.tool_calls[0].index'`. */
  readonly field: string;
  /** The value the stream sent. */
  readonly value: unknown;
  /** What the protocol allows there. */
  readonly expected: string;

  /**
   * @param field Where the bad value was.
   * @param value The value the stream sent.
   * @param expected What the protocol allows there, e.g. `'a non-negative integer'`.
   */
  constructor(field: string, value: unknown, expected: string) {
    super(`${field}: expected ${expected}`);
    this.name = 'StreamDataError';
    this.field = field;
    this.value = value;
    this.expected = expected;
  }
}
