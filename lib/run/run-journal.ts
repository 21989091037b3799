import type { RunKey } from './run-key.js';
import type { RunRecord } from './run-record.js';

/**
 * Where a durable run keeps its steps: an append-only list of records per run, keyed by
 * owner and run id. Every store (in memory, SQLite, Redis, PostgreSQL) passes one contract
 * suite; a store of your own can run it too (see docs/durable-runs.md).
 *
 * Writers append with the length they expect the journal to have (optimistic concurrency):
 * two instances that both try to continue one run cannot both succeed, the second gets
 * `RunJournalError` `'conflict'`. A batch of records is appended whole or not at all.
 *
 * @example
 * ```ts partial
 * import { InMemoryRunJournal, type RunJournal } from 'rx-advisors/run';
 *
 * const journal: RunJournal = new InMemoryRunJournal();
 * const key = { owner: 'user-1', runId: 'run-1' };
 * const length = await journal.append(key, [{ type: 'run-started', delivered: 0, messages }], 0);
 * const records = await journal.read(key); // the run-started record
 * ```
 */
export interface RunJournal {
  /**
   * Appends records to a run (creating it when `expectedLength` is 0 and it does not exist).
   * @param key The run's owner and id.
   * @param records The records, in order; all are written or none.
   * @param expectedLength How many records the writer believes the run has.
   * @returns The run's length after the append.
   * @throws RunJournalError `'conflict'` when the run has another length, `'too-large'` over
   *   a limit, `'store-failure'` when the store fails.
   */
  append(key: RunKey, records: readonly RunRecord[], expectedLength: number): Promise<number>;
  /**
   * Every record of a run, in the order they were appended.
   * @param key The run's owner and id.
   * @returns The records; empty for a run this owner does not have (unknown, expired,
   *   deleted, or another owner's).
   * @throws RunJournalError `'corrupt-record'` or `'unsupported-version'` for a record this
   *   version cannot read, `'store-failure'` when the store fails.
   */
  read(key: RunKey): Promise<readonly RunRecord[]>;
  /**
   * Forgets a run (nothing happens for an unknown one).
   * @param key The run's owner and id.
   */
  delete(key: RunKey): Promise<void>;
}

/**
 * The limits every journal store takes; each has a safe default.
 *
 * @example
 * ```ts
 * import type { RunJournalLimits } from 'rx-advisors/run';
 * const limits: RunJournalLimits = { maxRecords: 2_000, ttlMs: 24 * 60 * 60 * 1000 };
 * ```
 */
export interface RunJournalLimits {
  /** Records one run may hold. Default 10,000. */
  readonly maxRecords?: number;
  /** Bytes (UTF-8, as stored) of one record. Default 4 MiB. */
  readonly maxRecordBytes?: number;
  /** Bytes of all of one run's records. Default 64 MiB. */
  readonly maxRunBytes?: number;
  /** A run is forgotten this long after its last append. Default 7 days. */
  readonly ttlMs?: number;
}

/**
 * Whether a value has the methods of a {@link RunJournal} (for option checks).
 * @internal
 * @param value Anything.
 * @returns `true` when it has `append`, `read` and `delete` functions.
 */
export function isRunJournal(value: unknown): value is RunJournal {
  return (
    typeof value === 'object' &&
    value !== null &&
    ['append', 'read', 'delete'].every(
      (member) => typeof (value as Record<string, unknown>)[member] === 'function',
    )
  );
}
