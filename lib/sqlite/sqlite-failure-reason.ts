import { errorCodeOf, errorMessageOf } from '../errors/error-details.js';

/**
 * What went wrong with a better-sqlite3 call and what to do, from the error's SQLite code
 * (`SQLITE_BUSY`, `SQLITE_CORRUPT`…): the reason text of the typed errors of every SQLite
 * part of the library (the chat memory repository, the vector store), written once.
 * @internal
 * @example
 * ```ts
 * const { code, reason } = sqliteFailureReason(error, 'chat.db', {
 *   subject: 'the repository',
 *   writing: 'store memory',
 * });
 * ```
 * @param error What better-sqlite3 threw.
 * @param databaseName The database's file name.
 * @param words `subject`: what to point at a new file; `writing`: what needs a writable file.
 * @returns The SQLite code (`''` when the error has none) and the reason.
 */
export function sqliteFailureReason(
  error: unknown,
  databaseName: string,
  words: { readonly subject: string; readonly writing: string },
): { code: string; reason: string } {
  const code = errorCodeOf(error);
  const file = JSON.stringify(databaseName);
  switch (code.split('_').slice(0, 2).join('_')) {
    case 'SQLITE_BUSY':
    case 'SQLITE_LOCKED':
      return {
        code,
        reason:
          `the SQLite database ${file} is locked by another connection. Try again later, give ` +
          `better-sqlite3 a longer busy timeout (new Database(file, { timeout: 5000 })), or ` +
          `find the process that holds a long write transaction.`,
      };
    case 'SQLITE_CORRUPT':
    case 'SQLITE_NOTADB':
      return {
        code,
        reason:
          `the file ${file} is not a SQLite database or is corrupt. Restore it from a backup ` +
          `or point ${words.subject} at a new file.`,
      };
    case 'SQLITE_READONLY':
      return {
        code,
        reason: `the SQLite database ${file} is read-only. Open it writable to ${words.writing}.`,
      };
    case 'SQLITE_FULL':
    case 'SQLITE_IOERR':
    case 'SQLITE_CANTOPEN':
      return {
        code,
        reason:
          `the SQLite database ${file} could not be read or written (disk full, missing ` +
          `folder or permissions): ${errorMessageOf(error)}`,
      };
    default:
      return { code, reason: `SQLite failed on ${file}: ${errorMessageOf(error)}` };
  }
}
