import { sqliteFailureReason } from '../../sqlite/sqlite-failure-reason.js';
import { RxAdvisorsError } from '../../errors/rx-advisors-error.js';
import { VectorStoreError, type VectorStoreOperation } from '../../errors/vector-store-error.js';

/**
 * Turns a better-sqlite3 (or sqlite-vec) failure into a `VectorStoreError` that says what
 * happened and what to do. The library's own typed errors pass through.
 * @internal
 */
export function sqliteVectorFailure(
  error: unknown,
  operation: VectorStoreOperation,
  store: string,
  databaseName: string,
): RxAdvisorsError {
  if (RxAdvisorsError.isInstance(error)) return error;
  const { code, reason } = sqliteFailureReason(error, databaseName, {
    subject: 'the store',
    writing: 'add or delete',
  });
  return new VectorStoreError({
    operation,
    store,
    code: code === '' ? undefined : code,
    reason,
    cause: error,
  });
}
