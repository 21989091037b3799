import Database from 'better-sqlite3';
import { validateOptions, withDefaults } from '../../core/validate-options.js';
import { errorMessageOf } from '../../errors/error-details.js';
import { InvalidOptionsError } from '../../errors/invalid-options-error.js';
import { RunJournalError } from '../../errors/run-journal-error.js';
import { sqliteFailureReason } from '../../sqlite/sqlite-failure-reason.js';
import { appendConflict, checkAppendLimits, recordSizes } from '../journal-limits.js';
import { APPEND_NOW } from '../sync-append.js';
import type { RunJournal } from '../run-journal.js';
import type { RunKey } from '../run-key.js';
import type { RunRecord } from '../run-record.js';
import { decodeRunRecord, encodeRunRecord } from '../run-record-codec.js';
import {
  SQLITE_RUN_JOURNAL_DEFAULTS,
  SQLITE_RUN_JOURNAL_RULES,
  type SqliteRunJournalOptions,
  type SqliteRunJournalSynchronous,
} from './sqlite-run-journal-options.js';
import { prepareRunStatements, type SqliteRunStatements } from './sqlite-run-journal-statements.js';
import { tailOf, type RunTail } from './sqlite-run-tail.js';

export type {
  SqliteRunJournalOptions,
  SqliteRunJournalSynchronous,
} from './sqlite-run-journal-options.js';

/**
 * Expired runs an append deletes on its way (the rest wait for the next ones or `sweep()`).
 * An append that finds fewer makes the appends of the next 100th of the TTL (at most 1 s)
 * skip the query: one query less per append of a busy run.
 */
const SWEEP_ON_APPEND = 8;
const SWEEP_BATCH = 500;

/**
 * Whether an append guards a side effect: it carries a `tool-call-started` record, which the
 * durable run writes only before a call of a tool that is not idempotent (lib/run/durable/
 * tool-call-recorder.ts), and which must be on disk before that tool runs.
 */
const guardsSideEffect = (records: readonly RunRecord[]): boolean =>
  records.some((record) => record.type === 'tool-call-started');

/** The connection's `synchronous` for each mode (`'side-effects'` raises it per commit). */
const CONNECTION_LEVEL = { 'side-effects': 'NORMAL', full: 'FULL', normal: 'NORMAL' } as const;

/**
 * A {@link RunJournal} in SQLite through better-sqlite3: durable across a crash or a
 * restart of the process, shared by the processes of one machine. Across a power cut, by
 * `synchronous`: with `'side-effects'` (the default of `path`) the start of a side effect
 * is never lost (an append with a `tool-call-started` record is fsynced, and everything
 * before it with it), the last other appends may be; with `'full'` nothing that returned is
 * lost (every append fsynced). An append is one immediate transaction
 * (the length check, the limits and the records, each row carrying the run's bytes and
 * expiry: two pages written, not the run's row each time), so two writers of one run
 * cannot both succeed and a batch is written whole or not at all.
 * A run expires `ttlMs` after its last append: it reads as `[]` from then on, and its rows
 * are deleted by later appends (a few expired runs each) and by {@link SqliteRunJournal.sweep}.
 * Failures (a locked, corrupt or read-only database) reject with a `RunJournalError`
 * `'store-failure'` that says what to do; SQLite's error is the `cause`.
 *
 * @example
 * ```ts
 * import { SqliteRunJournal } from 'rx-advisors/run/sqlite';
 *
 * const journal = new SqliteRunJournal({ path: 'runs.db', ttlMs: 24 * 60 * 60 * 1000 });
 * const key = { owner: 'user-1', runId: 'run-1' };
 * await journal.append(key, [{ type: 'run-started', delivered: 0, messages: [] }], 0);
 * setInterval(() => void journal.sweep(), 60 * 60 * 1000).unref();
 * process.on('exit', () => journal.close());
 * ```
 */
export class SqliteRunJournal implements RunJournal {
  /** The records' table (the runs' table is this name with `_runs`). */
  readonly tableName: string;
  private readonly database: Database.Database;
  private readonly ownsDatabase: boolean;
  /** The journal's `synchronous`: given, or `'side-effects'` for a `path`. */
  private readonly synchronous: SqliteRunJournalSynchronous | undefined;
  private readonly options: typeof SQLITE_RUN_JOURNAL_DEFAULTS;
  private statements: SqliteRunStatements | undefined;
  private appendTransaction: Database.Transaction<SqliteRunJournal['write']> | undefined;
  /** When an append next looks for expired runs (ms, the journal's clock). */
  private nextSweepAt = -Infinity;
  /** How long appends skip that after finding none left: a 100th of the TTL, at most 1 s. */
  private readonly sweepPause: number;
  /** The interval a run's row is refreshed at most once in: a 100th of the TTL, at most 1 min. */
  private readonly refreshMs: number;

  /** @param options The database (or a file path), the table, the limits and the clock. */
  constructor(options: SqliteRunJournalOptions) {
    const given = validateOptions(options, SQLITE_RUN_JOURNAL_RULES);
    if ((given.database === undefined) === (given.path === undefined)) {
      throw new InvalidOptionsError({
        option: 'database',
        value: given.database,
        expected: 'an open better-sqlite3 Database, or else a path (one of the two)',
      });
    }
    this.options = withDefaults(SQLITE_RUN_JOURNAL_DEFAULTS, given);
    this.tableName = this.options.tableName;
    this.sweepPause = Math.min(1000, this.options.ttlMs / 100);
    this.refreshMs = Math.min(60_000, this.options.ttlMs / 100);
    this.ownsDatabase = given.database === undefined;
    this.synchronous = given.synchronous ?? (this.ownsDatabase ? 'side-effects' : undefined);
    this.database = given.database ?? new Database(given.path ?? '', { timeout: 5000 });
  }

  /** @inheritDoc */
  append(key: RunKey, records: readonly RunRecord[], expectedLength: number): Promise<number> {
    return new Promise((resolve) => resolve(this[APPEND_NOW](key, records, expectedLength)));
  }

  /** The durable run's writer appends here without a Promise (better-sqlite3 is synchronous). @internal */
  [APPEND_NOW](key: RunKey, records: readonly RunRecord[], expectedLength: number): number {
    return this.runNow('append', key.runId, (s) => {
      const texts = records.map(encodeRunRecord);
      const sizes = recordSizes(texts);
      // Made once (better-sqlite3 builds a transaction's functions on each `transaction()`).
      this.appendTransaction ??= this.database.transaction(this.write.bind(this));
      // IMMEDIATE takes the write lock up front: the check and the write see one state.
      if (
        this.synchronous !== 'side-effects' ||
        !guardsSideEffect(records) ||
        this.database.inTransaction
      ) {
        return this.appendTransaction.immediate(s, key, texts, sizes, expectedLength);
      }
      // This commit fsyncs the WAL, so it and every frame before it are on disk when the
      // append returns. The pragma takes effect when it is compiled, outside a transaction
      // only (a prepared one would not apply again): exec, under 1 µs each.
      this.database.exec('PRAGMA synchronous = FULL');
      try {
        return this.appendTransaction.immediate(s, key, texts, sizes, expectedLength);
      } finally {
        this.database.exec('PRAGMA synchronous = NORMAL');
      }
    });
  }

  /** An append's work, inside its transaction. */
  private write(
    s: SqliteRunStatements,
    key: RunKey,
    texts: readonly string[],
    sizes: readonly number[],
    expectedLength: number,
  ): number {
    const now = this.options.now();
    if (now >= this.nextSweepAt) {
      const { found } = this.sweepSome(s, now, SWEEP_ON_APPEND);
      if (found < SWEEP_ON_APPEND) this.nextSweepAt = now + this.sweepPause;
    }
    const tail = this.liveRun(s, key, now);
    const length = tail?.length ?? 0;
    if (length !== expectedLength) throw appendConflict(key.runId, expectedLength, length);
    const current = { records: length, bytes: tail?.bytes ?? 0 };
    checkAppendLimits(key.runId, sizes, current, this.options);
    if (texts.length === 0) return length;
    const expiresAt = now + this.options.ttlMs;
    let bytes = current.bytes;
    for (let i = 0; i < texts.length; i++) {
      bytes += sizes[i];
      s.insert.run(key.owner, key.runId, length + i, texts[i], bytes, expiresAt);
    }
    // The run's row (the sweep's index) is written when the run starts, and when its expiry
    // moved into another refresh interval: not on every append, one page less per commit.
    const refresh = this.refreshMs;
    if (
      tail === undefined ||
      Math.floor(expiresAt / refresh) !== Math.floor(tail.expiresAt / refresh)
    ) {
      s.upsert.run(key.owner, key.runId, length + texts.length, bytes, expiresAt);
    }
    return length + texts.length;
  }

  /** @inheritDoc */
  read(key: RunKey): Promise<readonly RunRecord[]> {
    return this.run('read', key.runId, (s) => {
      const texts = this.database.transaction((): string[] => {
        const tail = tailOf(s, key.owner, key.runId);
        if (tail === undefined || tail.expiresAt <= this.options.now()) return [];
        return s.records.all(key.owner, key.runId);
      })();
      return texts.map((text, index) => decodeRunRecord(text, { runId: key.runId, index }));
    });
  }

  /** @inheritDoc */
  delete(key: RunKey): Promise<void> {
    return this.run('delete', key.runId, (s) => {
      this.database.transaction(() => this.remove(s, key.owner, key.runId)).immediate();
    });
  }

  /**
   * Deletes every expired run (appends delete a few on their way; call this from a timer
   * to reclaim the space of runs nobody writes any more).
   * @returns How many runs were deleted.
   */
  sweep(): Promise<number> {
    return this.run('sweep', '', (s) => {
      let total = 0;
      for (;;) {
        const now = this.options.now();
        const { found, removed } = this.database
          .transaction(() => this.sweepSome(s, now, SWEEP_BATCH))
          .immediate();
        total += removed;
        if (found < SWEEP_BATCH) return total;
      }
    });
  }

  /** Closes the database when the journal opened it from a `path` (a given `database` is the application's). */
  close(): void {
    if (this.ownsDatabase && this.database.open) this.database.close();
  }

  /** The run's length, bytes and expiry, unless it expired (then its rows are deleted). */
  private liveRun(s: SqliteRunStatements, key: RunKey, now: number): RunTail | undefined {
    const tail = tailOf(s, key.owner, key.runId);
    if (tail === undefined || tail.expiresAt > now) return tail;
    this.remove(s, key.owner, key.runId);
    return undefined;
  }

  /**
   * Deletes expired runs among the first `limit` whose run row says so. That row's expiry
   * may be behind the run's (it is refreshed once per interval): a run that is in fact live
   * gets its row brought up to date instead.
   */
  private sweepSome(
    s: SqliteRunStatements,
    now: number,
    limit: number,
  ): { found: number; removed: number } {
    const candidates = s.expired.all(now, limit);
    let removed = 0;
    for (const { owner, run_id } of candidates) {
      const tail = tailOf(s, owner, run_id);
      if (tail === undefined || tail.expiresAt <= now) {
        this.remove(s, owner, run_id);
        removed++;
      } else {
        s.upsert.run(owner, run_id, tail.length, tail.bytes, tail.expiresAt);
      }
    }
    return { found: candidates.length, removed };
  }

  private remove(s: SqliteRunStatements, owner: string, runId: string): void {
    s.removeRecords.run(owner, runId);
    s.removeRun.run(owner, runId);
  }

  private run<T>(
    operation: string,
    runId: string,
    work: (s: SqliteRunStatements) => T,
  ): Promise<T> {
    return new Promise((resolve) => resolve(this.runNow(operation, runId, work)));
  }

  /** `work` on the statements; what fails is thrown as a `RunJournalError`. */
  private runNow<T>(operation: string, runId: string, work: (s: SqliteRunStatements) => T): T {
    try {
      if (!this.database.open) throw new Error('the database is closed');
      this.statements ??= prepareRunStatements(
        this.database,
        this.tableName,
        this.synchronous && CONNECTION_LEVEL[this.synchronous],
      );
      return work(this.statements);
    } catch (error) {
      throw this.failure(error, operation, runId);
    }
  }

  private failure(error: unknown, operation: string, runId: string): RunJournalError {
    if (RunJournalError.isInstance(error)) return error;
    const { reason } = sqliteFailureReason(error, this.database.name, {
      subject: 'the journal',
      writing: 'write runs',
    });
    return new RunJournalError({
      runId,
      reason: 'store-failure',
      message: `The run journal could not ${operation}: ${this.database.open ? reason : errorMessageOf(error)}`,
      cause: error,
    });
  }
}
