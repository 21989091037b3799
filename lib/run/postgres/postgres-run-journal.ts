import type { Pool } from 'pg';
import { validateOptions, withDefaults } from '../../core/validate-options.js';
import { InvalidOptionsError } from '../../errors/invalid-options-error.js';
import { appendConflict, checkAppendLimits, recordSizes } from '../journal-limits.js';
import type { RunJournal } from '../run-journal.js';
import type { RunKey } from '../run-key.js';
import type { RunRecord } from '../run-record.js';
import { decodeRunRecord, encodeRunRecord } from '../run-record-codec.js';
import { isConnectionLoss, postgresRunFailure } from './postgres-run-failure.js';
import {
  POSTGRES_RUN_JOURNAL_DEFAULTS,
  POSTGRES_RUN_JOURNAL_RULES,
  POSTGRES_RUN_STORE_RULES,
  type PostgresRunJournalOptions,
} from './postgres-run-journal-options.js';
import { runJournalSchemaSql, runJournalStatements } from './postgres-run-journal-sql.js';

export type { PostgresRunJournalOptions } from './postgres-run-journal-options.js';

const SWEEP_BATCH = 500;

/**
 * A {@link RunJournal} in PostgreSQL over `pg`, shared by every instance of a backend. An
 * append is one statement (one round trip): the run's row is updated only when its length
 * is the expected one and the limits hold, and the records are inserted in the same
 * statement, so two writers of one run cannot both succeed (the row lock orders them, the
 * second finds the length changed) and a batch is committed whole or not at all. A read is
 * one statement too. A run expires `ttlMs` after its last append (the server's clock): it
 * reads as `[]` from then on, and {@link PostgresRunJournal.sweep} deletes its rows.
 *
 * A statement that fails because the connection went away is sent once more on a fresh
 * connection: a read, a delete or a sweep as it is; an append too, and when that retry
 * finds the run already longer, the journal checks whether the records there are the ones
 * it sent (the first attempt committed before the connection dropped): then the append
 * succeeded, else it is a `'conflict'`. Other failures reject with a `RunJournalError`
 * `'store-failure'` carrying the SQLSTATE.
 *
 * @example
 * ```ts
 * import pg from 'pg';
 * import { PostgresRunJournal } from 'rx-advisors/run/postgres';
 *
 * const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL });
 * pool.on('error', (error) => console.error('postgres', error)); // an idle client lost its server
 * const journal = new PostgresRunJournal({ pool, ttlMs: 24 * 60 * 60 * 1000 });
 * setInterval(() => void journal.sweep(), 60 * 60 * 1000).unref();
 * ```
 */
export class PostgresRunJournal implements RunJournal {
  /** The records' table (the runs' table is this name with `_runs`). */
  readonly tableName: string;
  private readonly pool: Pool;
  private readonly options: typeof POSTGRES_RUN_JOURNAL_DEFAULTS;
  private readonly sql: ReturnType<typeof runJournalStatements>;
  private schema: Promise<void> | undefined;

  /** @param options The pool and, optionally, the table, the limits and whether to create the tables. */
  constructor(options: PostgresRunJournalOptions) {
    const given = validateOptions(options, POSTGRES_RUN_JOURNAL_RULES);
    this.pool = given.pool;
    this.options = withDefaults(POSTGRES_RUN_JOURNAL_DEFAULTS, given);
    this.tableName = this.options.tableName;
    this.sql = runJournalStatements(this.tableName);
  }

  /**
   * The DDL of the tables, for a migration tool.
   * @param tableName The records' table; default `rx_advisors_run_journal`.
   * @returns `CREATE TABLE IF NOT EXISTS` and `CREATE INDEX IF NOT EXISTS` statements.
   */
  static schemaSql(tableName: string = POSTGRES_RUN_JOURNAL_DEFAULTS.tableName): string {
    if (!POSTGRES_RUN_STORE_RULES.tableName.test(tableName)) {
      throw new InvalidOptionsError({
        option: 'tableName',
        value: tableName,
        expected: POSTGRES_RUN_STORE_RULES.tableName.expected,
      });
    }
    return runJournalSchemaSql(tableName);
  }

  /** @inheritDoc */
  async append(
    key: RunKey,
    records: readonly RunRecord[],
    expectedLength: number,
  ): Promise<number> {
    const texts = records.map(encodeRunRecord);
    const sizes = recordSizes(texts);
    const limits = this.options;
    // What needs no state is refused before anything is sent: the size of each record,
    // and every limit for a new run (it holds nothing yet).
    const unbounded = { maxRecords: Infinity, maxRunBytes: Infinity };
    const stateless = expectedLength === 0 ? limits : { ...limits, ...unbounded };
    checkAppendLimits(key.runId, sizes, { records: 0, bytes: 0 }, stateless);
    if (texts.length === 0) return this.emptyAppend(key, expectedLength);
    const batchBytes = sizes.reduce((sum, size) => sum + size, 0);
    const params = [
      key.owner,
      key.runId,
      expectedLength,
      texts,
      batchBytes,
      limits.ttlMs,
      limits.maxRecords,
      limits.maxRunBytes,
    ];
    const statement = expectedLength === 0 ? this.sql.create : this.sql.append;
    let retried = false;
    const written = await this.run('append to the run', key.runId, async (attempt) => {
      retried = attempt > 1;
      return (await this.pool.query(statement, params)).rowCount ?? 0;
    });
    if (written === texts.length) return expectedLength + texts.length;
    const live = await this.live(key);
    if (retried && live.length === expectedLength + texts.length) {
      const tail = await this.run(
        'read',
        key.runId,
        async () =>
          (
            await this.pool.query<{ record: string }>(this.sql.tail, [
              key.owner,
              key.runId,
              expectedLength,
            ])
          ).rows,
      );
      if (tail.length === texts.length && tail.every((row, i) => row.record === texts[i])) {
        return live.length;
      }
    }
    if (live.length !== expectedLength)
      throw appendConflict(key.runId, expectedLength, live.length);
    checkAppendLimits(key.runId, sizes, { records: live.length, bytes: live.bytes }, limits);
    throw appendConflict(key.runId, expectedLength, live.length); // changed in between
  }

  /** @inheritDoc */
  async read(key: RunKey): Promise<readonly RunRecord[]> {
    if (unstorable(key)) return [];
    const rows = await this.run(
      'read the run',
      key.runId,
      async () =>
        (await this.pool.query<{ record: string }>(this.sql.read, [key.owner, key.runId])).rows,
    );
    return rows.map((row, index) => decodeRunRecord(row.record, { runId: key.runId, index }));
  }

  /** @inheritDoc */
  async delete(key: RunKey): Promise<void> {
    if (unstorable(key)) return;
    await this.run('delete the run', key.runId, () =>
      this.pool.query(this.sql.remove, [key.owner, key.runId]),
    );
  }

  /**
   * Deletes every expired run (call it from a timer: expired runs read as `[]` already,
   * this reclaims their space).
   * @returns How many runs were deleted.
   */
  async sweep(): Promise<number> {
    let total = 0;
    for (;;) {
      const swept = await this.run('sweep', '', async () => {
        const result = await this.pool.query<{ runs: number }>(this.sql.sweep, [SWEEP_BATCH]);
        return result.rows[0]?.runs ?? 0;
      });
      total += swept;
      if (swept < SWEEP_BATCH) return total;
    }
  }

  private async emptyAppend(key: RunKey, expectedLength: number): Promise<number> {
    const { length } = await this.live(key);
    if (length !== expectedLength) throw appendConflict(key.runId, expectedLength, length);
    return length;
  }

  /** The run's live length and bytes (0 and 0 for none). */
  private async live(key: RunKey): Promise<{ length: number; bytes: number }> {
    return this.run('read the run', key.runId, async () => {
      const result = await this.pool.query<{ length: number; bytes: number }>(this.sql.live, [
        key.owner,
        key.runId,
      ]);
      return result.rows[0] ?? { length: 0, bytes: 0 };
    });
  }

  /** Creates the tables once, then runs `work`, once more when the connection dropped. */
  private async run<T>(
    operation: string,
    runId: string,
    work: (attempt: number) => Promise<T>,
  ): Promise<T> {
    try {
      await this.ensureSchema();
      try {
        return await work(1);
      } catch (error) {
        if (!isConnectionLoss(error)) throw error;
        return await work(2);
      }
    } catch (error) {
      throw postgresRunFailure(error, operation, runId);
    }
  }

  /** Creates the tables once per journal; a failed attempt is tried again next time. */
  private ensureSchema(): Promise<void> {
    if (!this.options.createTable) return Promise.resolve();
    this.schema ??= this.createSchema().catch((error: unknown) => {
      this.schema = undefined;
      throw error;
    });
    return this.schema;
  }

  /** Two processes creating the tables at once would race in the catalog: they take turns. */
  private async createSchema(): Promise<void> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [
        `rx-advisors-schema:${this.tableName}`,
      ]);
      await client.query(runJournalSchemaSql(this.tableName));
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }
}

/** PostgreSQL text cannot hold NUL: a key with one has no run (an append fails, 22021). */
const unstorable = (key: RunKey): boolean =>
  key.owner.includes('\u0000') || key.runId.includes('\u0000');
