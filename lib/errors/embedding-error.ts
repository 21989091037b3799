import { hasErrorMarker, RxAdvisorsError } from './rx-advisors-error.js';

const MARKER = Symbol.for('rx-advisors.error.EmbeddingError');

/**
 * The embedding model failed (or answered with the wrong number of vectors) while a vector
 * store embedded documents or a query. The cause is the model's own error; nothing was
 * stored.
 *
 * @example
 * ```ts partial
 * import { EmbeddingError } from 'rx-advisors/rag';
 *
 * store.add(documents).subscribe({
 *   error: (e) => EmbeddingError.isInstance(e) && console.log(e.provider, e.cause),
 * });
 * ```
 */
export class EmbeddingError extends RxAdvisorsError {
  /** The embedding model's provider. */
  readonly provider: string;

  /** @param options The provider, what failed and the cause. */
  constructor(options: { provider: string; problem: string; cause?: unknown }) {
    super(
      `The embedding model (${options.provider}) failed: ${options.problem}. ` +
        'Check the model and its credentials, then try again; nothing was stored.',
      { cause: options.cause },
    );
    Object.defineProperty(this, MARKER, { value: true });
    this.provider = options.provider;
  }

  /**
   * Whether `error` is an {@link EmbeddingError}, even from another copy of the package.
   * @param error Any value.
   * @returns `true` when `error` carries this class's marker.
   */
  static override isInstance(error: unknown): error is EmbeddingError {
    return hasErrorMarker(error, MARKER);
  }
}
