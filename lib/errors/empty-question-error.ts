import { hasErrorMarker, RxAdvisorsError } from './rx-advisors-error.js';

const MARKER = Symbol.for('rx-advisors.error.EmptyQuestionError');

/**
 * A retrieval advisor found no question to retrieve for: the request has no user message,
 * or its last user message is blank. Nothing was retrieved and the model was not called.
 *
 * @example
 * ```ts
 * import { EmptyQuestionError } from 'rx-advisors/rag';
 *
 * client.prompt('   ').call().content().subscribe({
 *   error: (e) => EmptyQuestionError.isInstance(e) && console.log(e.advisorName),
 * });
 * ```
 */
export class EmptyQuestionError extends RxAdvisorsError {
  /** The advisor that needed a question. */
  readonly advisorName: string;

  /** @param options The advisor's name. */
  constructor(options: { advisorName: string }) {
    super(
      `The advisor "${options.advisorName}" needs a question to retrieve documents for, but the ` +
        'last user message is missing or blank. Send a non-empty user message.',
    );
    Object.defineProperty(this, MARKER, { value: true });
    this.advisorName = options.advisorName;
  }

  /**
   * Whether `error` is an {@link EmptyQuestionError}, even from another copy of the package.
   * @param error Any value.
   * @returns `true` when `error` carries this class's marker.
   */
  static override isInstance(error: unknown): error is EmptyQuestionError {
    return hasErrorMarker(error, MARKER);
  }
}
