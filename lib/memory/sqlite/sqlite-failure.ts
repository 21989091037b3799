import { ChatMemoryError, type ChatMemoryOperation } from '../../errors/chat-memory-error.js';

/**
 * Turns a better-sqlite3 failure into a `ChatMemoryError` that says what happened and
 * what to do. Already-typed errors pass through.
 * @internal
 */
export function sqliteFailure(
  error: unknown,
  operation: ChatMemoryOperation,
  conversationId: string | undefined,
  databaseName: string,
): ChatMemoryError {
  if (ChatMemoryError.isInstance(error)) return error;
  const code = errorCode(error);
  const base = code.split('_').slice(0, 2).join('_');
  const options = (reason: string) => ({
    operation,
    ...(conversationId === undefined ? {} : { conversationId }),
    ...(code === '' ? {} : { code }),
    reason,
    cause: error,
  });
  const file = JSON.stringify(databaseName);
  switch (base) {
    case 'SQLITE_BUSY':
    case 'SQLITE_LOCKED':
      return new ChatMemoryError(
        options(
          `the SQLite database ${file} is locked by another connection. Try again later, give ` +
            `better-sqlite3 a longer busy timeout (new Database(file, { timeout: 5000 })), or ` +
            `find the process that holds a long write transaction.`,
        ),
      );
    case 'SQLITE_CORRUPT':
    case 'SQLITE_NOTADB':
      return new ChatMemoryError(
        options(
          `the file ${file} is not a SQLite database or is corrupt. Restore it from a backup ` +
            `or point the repository at a new file.`,
        ),
      );
    case 'SQLITE_READONLY':
      return new ChatMemoryError(
        options(`the SQLite database ${file} is read-only. Open it writable to store memory.`),
      );
    case 'SQLITE_FULL':
    case 'SQLITE_IOERR':
    case 'SQLITE_CANTOPEN':
      return new ChatMemoryError(
        options(
          `the SQLite database ${file} could not be read or written (disk full, missing ` +
            `folder or permissions): ${messageOf(error)}`,
        ),
      );
    default:
      return new ChatMemoryError(options(`SQLite failed on ${file}: ${messageOf(error)}`));
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
