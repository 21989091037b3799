import { hasErrorMarker, RxAdvisorsError } from './rx-advisors-error.js';

const MARKER = Symbol.for('rx-advisors.error.FilterExpressionError');

/**
 * A vector-store metadata filter expression did not parse (or went past the parser's
 * limits). Nothing was searched.
 *
 * @example
 * ```ts partial
 * import { FilterExpressionError, InMemoryVectorStore } from 'rx-advisors/rag';
 *
 * store.similaritySearch({ query: 'tea', filter: "genre == 'drama" }).subscribe({
 *   error: (e) => FilterExpressionError.isInstance(e) && console.log(e.position, e.expression),
 * });
 * ```
 */
export class FilterExpressionError extends RxAdvisorsError {
  /** The expression as given. */
  readonly expression: string;
  /** The character offset where parsing stopped. */
  readonly position: number;

  /** @param options The expression, the offset and what was wrong there. */
  constructor(options: { expression: string; position: number; problem: string }) {
    super(
      `The filter expression is not valid at offset ${options.position}: ${options.problem}. ` +
        `Write comparisons such as "genre == 'drama' && year >= 2020" (see docs/rag.md).`,
    );
    Object.defineProperty(this, MARKER, { value: true });
    this.expression = options.expression;
    this.position = options.position;
  }

  /**
   * Whether `error` is a {@link FilterExpressionError}, even from another copy of the package.
   * @param error Any value.
   * @returns `true` when `error` carries this class's marker.
   */
  static override isInstance(error: unknown): error is FilterExpressionError {
    return hasErrorMarker(error, MARKER);
  }
}
