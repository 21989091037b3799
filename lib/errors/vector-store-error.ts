import { hasErrorMarker, RxAdvisorsError } from './rx-advisors-error.js';

const MARKER = Symbol.for('rx-advisors.error.VectorStoreError');

/**
 * What a vector store was doing when it failed.
 * @example
 * ```ts
 * import type { VectorStoreOperation } from 'rx-advisors/rag';
 * const operation: VectorStoreOperation = 'search';
 * ```
 */
export type VectorStoreOperation = 'open' | 'add' | 'delete' | 'search';

/**
 * A persistent vector store failed: its database is closed, locked by another connection,
 * read-only, corrupt, or lacks the vector extension. Carries the operation and the
 * database's error code; the driver's error is the `cause`. An `add` that fails this way
 * stored nothing.
 *
 * @example
 * ```ts partial
 * import { VectorStoreError } from 'rx-advisors/rag';
 *
 * store.add(documents).subscribe({
 *   error: (e) => VectorStoreError.isInstance(e) && e.code === 'SQLITE_BUSY' && console.log('try again'),
 * });
 * ```
 */
export class VectorStoreError extends RxAdvisorsError {
  /** What the store was doing. */
  readonly operation: VectorStoreOperation;
  /** The database's error code (`'SQLITE_BUSY'`, `'SQLITE_READONLY'`…), when it has one. */
  readonly code: string | undefined;

  /** @param options The operation, the store's name, the code, what to do, and the cause. */
  constructor(options: {
    operation: VectorStoreOperation;
    store: string;
    code?: string | undefined;
    reason: string;
    cause?: unknown;
  }) {
    const code = options.code === undefined ? '' : ` (${options.code})`;
    super(
      `The vector store ${options.store} could not ${options.operation}${code}: ${options.reason}`,
      {
        cause: options.cause,
      },
    );
    Object.defineProperty(this, MARKER, { value: true });
    this.operation = options.operation;
    this.code = options.code;
  }

  /**
   * Whether `error` is a {@link VectorStoreError}, even from another copy of the package.
   * @param error Any value.
   * @returns `true` when `error` carries this class's marker.
   */
  static override isInstance(error: unknown): error is VectorStoreError {
    return hasErrorMarker(error, MARKER);
  }
}
