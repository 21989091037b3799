import { hasErrorMarker, RxAdvisorsError } from './rx-advisors-error.js';

const MARKER = Symbol.for('rx-advisors.error.VectorDimensionError');

/**
 * An embedding's length does not match the vector store's dimensions (the store was filled
 * with another embedding model, or the model returned a short vector). Nothing was stored.
 *
 * @example
 * ```ts partial
 * import { VectorDimensionError } from 'rx-advisors/rag';
 *
 * store.add(documents).subscribe({
 *   error: (e) => VectorDimensionError.isInstance(e) && console.log(e.expected, e.actual),
 * });
 * ```
 */
export class VectorDimensionError extends RxAdvisorsError {
  /** The store's dimensions. */
  readonly expected: number;
  /** The length of the embedding that was refused. */
  readonly actual: number;

  /** @param options The store's dimensions and the embedding's length. */
  constructor(options: { expected: number; actual: number }) {
    super(
      `An embedding has ${options.actual} dimensions but the vector store holds ${options.expected}. ` +
        'Use the same embedding model (and dimensions) for adding and searching, or a new store.',
    );
    Object.defineProperty(this, MARKER, { value: true });
    this.expected = options.expected;
    this.actual = options.actual;
  }

  /**
   * Whether `error` is a {@link VectorDimensionError}, even from another copy of the package.
   * @param error Any value.
   * @returns `true` when `error` carries this class's marker.
   */
  static override isInstance(error: unknown): error is VectorDimensionError {
    return hasErrorMarker(error, MARKER);
  }
}
