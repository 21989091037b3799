import { hasErrorMarker } from './rx-advisors-error.js';
import { ProviderError } from './provider-error.js';

const MARKER = Symbol.for('rx-advisors.error.ProviderProtocolError');
/** A hostile value may be huge: the message quotes at most this many characters of it. */
const MAX_QUOTED = 60;

/**
 * The fields of a {@link ProviderProtocolError}.
 * @example
 * ```ts
 * import { ProviderProtocolError, type ProviderProtocolErrorOptions } from 'rx-advisors';
 *
 * const options: ProviderProtocolErrorOptions = {
 *   provider: 'acme',
 *   field: 'tool.index',
 *   value: -1,
 *   expected: 'a non-negative integer',
 * };
 * const error = new ProviderProtocolError(options); // error.retryable === false
 * ```
 */
export interface ProviderProtocolErrorOptions {
  /** The provider, as in `ChatModel.provider`. */
  provider: string;
  /** Where the bad value was, e.g. `'choices[0].delta.tool_calls[0].index'`. */
  field: string;
  /** The value the stream sent. */
  value: unknown;
  /** What the protocol allows there, e.g. `'a non-negative integer'`. */
  expected: string;
  /** The SDK event or error that carried it. */
  cause?: unknown;
}

/**
 * A provider's stream sent data that breaks its protocol (a tool-call index that is not a
 * non-negative integer, …), so the call was aborted. Not retryable: the server is broken
 * or hostile, and asking again is unlikely to help.
 *
 * @example
 * ```ts
 * import { ProviderProtocolError } from 'rx-advisors';
 *
 * client.prompt('hi').call().content().subscribe({
 *   error: (error) => {
 *     if (ProviderProtocolError.isInstance(error)) console.log(error.field, error.value);
 *   },
 * });
 * ```
 */
export class ProviderProtocolError extends ProviderError {
  /** Where the bad value was. */
  readonly field: string;
  /** The value the stream sent. */
  readonly value: unknown;

  /** @param options The provider, the field, the bad value and what was expected. */
  constructor(options: ProviderProtocolErrorOptions) {
    super({
      provider: options.provider,
      message:
        `the stream sent ${quote(options.value)} as ${options.field}, expected ` +
        `${options.expected}; the server does not follow the provider's protocol`,
      retryable: false,
      cause: options.cause,
    });
    Object.defineProperty(this, MARKER, { value: true });
    this.field = options.field;
    this.value = options.value;
  }

  /**
   * Whether `error` is a {@link ProviderProtocolError}, even from another copy of the package.
   * @param error Any value.
   * @returns `true` when `error` carries this class's marker.
   */
  static override isInstance(error: unknown): error is ProviderProtocolError {
    return hasErrorMarker(error, MARKER);
  }
}

function quote(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > MAX_QUOTED ? `${text.slice(0, MAX_QUOTED)}…` : text;
}
