import { hasErrorMarker, RxAdvisorsError } from './rx-advisors-error.js';

const MARKER = Symbol.for('rx-advisors.error.MissingConversationIdError');

/**
 * Raised by a chat memory advisor when the call has no usable conversation id: the
 * advisor param `conversationId` is missing, empty or not a string, and the advisor has
 * no `defaultConversationId`.
 *
 * @example
 * ```ts
 * import { MissingConversationIdError } from 'rx-advisors';
 *
 * client.prompt('Hi').call().content().subscribe({
 *   error: (error) => {
 *     if (MissingConversationIdError.isInstance(error)) console.log(error.advisor, error.value);
 *   },
 * });
 * ```
 */
export class MissingConversationIdError extends RxAdvisorsError {
  /** The name of the advisor that needed the id. */
  readonly advisor: string;
  /** What the call had under the `conversationId` advisor param (`undefined` when absent). */
  readonly value: unknown;

  /** @param options The advisor's name and the value found under `conversationId`. */
  constructor(options: { advisor: string; value: unknown }) {
    const found =
      options.value === undefined
        ? 'the call has no "conversationId" advisor param'
        : `the "conversationId" advisor param is ${describe(options.value)}`;
    super(
      `${options.advisor} needs a conversation id, but ${found}. Pass a non-empty string with ` +
        `.advisorParams({ conversationId: 'c1' }) (or defaultAdvisorParams on the client), or give ` +
        `the advisor a defaultConversationId.`,
    );
    Object.defineProperty(this, MARKER, { value: true });
    this.advisor = options.advisor;
    this.value = options.value;
  }

  /**
   * Whether `error` is a {@link MissingConversationIdError}, even from another copy of the package.
   * @param error Any value.
   * @returns `true` when `error` carries this class's marker.
   */
  static override isInstance(error: unknown): error is MissingConversationIdError {
    return hasErrorMarker(error, MARKER);
  }
}

function describe(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (value === null) return 'null';
  return `a ${typeof value}`;
}
