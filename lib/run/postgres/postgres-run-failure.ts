import { errorCodeOf, errorMessageOf } from '../../errors/error-details.js';
import { RunJournalError } from '../../errors/run-journal-error.js';

/** By SQLSTATE class (two characters) or Node error code. */
const ADVICE: Record<string, string> = {
  '08': 'The connection failed: check that the server is up; the pool reconnects by itself.',
  '57': 'The server is shutting down or restarting: try again in a moment.',
  '53': 'The server is out of resources (connections, disk, memory).',
  '42': 'The tables are missing or differ: let the journal create them, or run PostgresRunJournal.schemaSql().',
  '22': 'A value was rejected (an owner or run id with a NUL character? PostgreSQL text cannot hold one).',
  '25': 'The server is read-only (a standby?): point the pool at the primary.',
  ECONNREFUSED: 'Nothing listens at the address: check that the server is up.',
  ECONNRESET: 'The server dropped the connection: try again; the pool reconnects by itself.',
};

/**
 * Whether a `pg` failure is the connection going away (the server restarted, a proxy cut
 * it): the statement may have been lost, so a retry on a fresh connection can help.
 * @internal
 */
export function isConnectionLoss(error: unknown): boolean {
  const code = errorCodeOf(error);
  if (code.startsWith('08') || ['57P01', '57P02', '57P03', 'ECONNRESET', 'EPIPE'].includes(code)) {
    return true;
  }
  return /Connection terminated|connection error|not queryable/i.test(errorMessageOf(error));
}

/**
 * Turns a `pg` failure into a `RunJournalError` `'store-failure'` that says what happened
 * and what to do. Already-typed errors pass through.
 * @internal
 */
export function postgresRunFailure(
  error: unknown,
  operation: string,
  runId: string,
): RunJournalError {
  if (RunJournalError.isInstance(error)) return error;
  const code = errorCodeOf(error);
  const advice = ADVICE[code.slice(0, 2)] ?? ADVICE[code] ?? 'Check the server and try again.';
  return new RunJournalError({
    runId,
    reason: 'store-failure',
    message:
      `The run journal could not ${operation}: PostgreSQL failed${code === '' ? '' : ` (${code})`}: ` +
      `${errorMessageOf(error)}. An append is one statement: it was committed whole or not at all. ${advice}`,
    cause: error,
  });
}
