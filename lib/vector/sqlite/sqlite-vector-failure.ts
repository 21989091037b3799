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
  const code = errorCode(error);
  const base = code.split('_').slice(0, 2).join('_');
  const file = JSON.stringify(databaseName);
  const fail = (reason: string) =>
    new VectorStoreError({
      operation,
      store,
      code: code === '' ? undefined : code,
      reason,
      cause: error,
    });
  switch (base) {
    case 'SQLITE_BUSY':
    case 'SQLITE_LOCKED':
      return fail(
        `the SQLite database ${file} is locked by another connection. Try again later, give ` +
          `better-sqlite3 a longer busy timeout (new Database(file, { timeout: 5000 })), or find ` +
          `the process that holds a long write transaction.`,
      );
    case 'SQLITE_CORRUPT':
    case 'SQLITE_NOTADB':
      return fail(
        `the file ${file} is not a SQLite database or is corrupt. Restore it from a backup or ` +
          `point the store at a new file.`,
      );
    case 'SQLITE_READONLY':
      return fail(`the SQLite database ${file} is read-only. Open it writable to add or delete.`);
    case 'SQLITE_FULL':
    case 'SQLITE_IOERR':
    case 'SQLITE_CANTOPEN':
      return fail(
        `the SQLite database ${file} could not be read or written (disk full, missing folder ` +
          `or permissions): ${messageOf(error)}`,
      );
    default:
      return fail(`SQLite failed on ${file}: ${messageOf(error)}`);
  }
}

function errorCode(error: unknown): string {
  if (typeof error !== 'object' || error === null) return '';
  const code = (error as Record<string, unknown>)['code'];
  return typeof code === 'string' ? code : '';
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
