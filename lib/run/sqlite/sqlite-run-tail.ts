import type { SqliteRunStatements } from './sqlite-run-journal-statements.js';

/**
 * A run's length, bytes and expiry (ms, the journal's clock), as its last record row holds
 * them.
 * @internal
 */
export interface RunTail {
  readonly length: number;
  readonly bytes: number;
  readonly expiresAt: number;
}

/**
 * The run's length, bytes and expiry, from its last record row (one index lookup), or from
 * its run's row when an older version wrote that record (it kept the run's row exact on
 * every append). `undefined` for a run with no records, expired or not.
 * @internal
 * @param s The journal's statements.
 * @param owner The run's owner.
 * @param runId The run's id.
 */
export function tailOf(s: SqliteRunStatements, owner: string, runId: string): RunTail | undefined {
  const last = s.tail.get(owner, runId);
  if (last === undefined) return undefined;
  if (last.run_bytes !== null && last.expires_at !== null) {
    return { length: last.seq + 1, bytes: last.run_bytes, expiresAt: last.expires_at };
  }
  const row = s.run.get(owner, runId);
  return row && { length: row.length, bytes: row.bytes, expiresAt: row.expires_at };
}
