import type BetterSqlite3 from 'better-sqlite3';
import { Rules, type OptionRules } from '../../core/validate-options.js';
import { isSqliteDatabase } from '../../sqlite/is-sqlite-database.js';
import { RUN_JOURNAL_LIMIT_DEFAULTS, RUN_JOURNAL_LIMIT_RULES } from '../journal-limits.js';
import type { RunJournalLimits } from '../run-journal.js';

/**
 * Options of {@link SqliteRunJournal}: where the journal lives (an open `database`, or a
 * `path` the journal opens itself), its table and its limits.
 *
 * @example
 * ```ts
 * import type { SqliteRunJournalOptions } from 'rx-advisors/run/sqlite';
 * const options: SqliteRunJournalOptions = { path: 'runs.db', ttlMs: 24 * 60 * 60 * 1000 };
 * ```
 */
export interface SqliteRunJournalOptions extends RunJournalLimits {
  /**
   * An open better-sqlite3 database. The application opens it (give it a busy `timeout`
   * when several processes write) and closes it; the journal never does either.
   */
  readonly database?: BetterSqlite3.Database;
  /**
   * A database file the journal opens itself (WAL, a 5 s busy timeout) and closes in
   * `close()`. Give `database` or `path`, not both.
   */
  readonly path?: string;
  /**
   * The records' table; the runs' table is this name with `_runs`. Default
   * `rx_advisors_run_journal`.
   */
  readonly tableName?: string;
  /**
   * Which commits are fsynced before the append returns (the WAL's `PRAGMA synchronous`, set
   * on the connection: for a given `database`, its other tables too). Every mode keeps every
   * append that returned through a process crash, a SIGKILL or a deploy; they differ on a
   * power cut or an OS crash:
   * - `'side-effects'` (the default of `path`): the commits that guard a side effect are
   *   fsynced, the others are not. An append that carries a `tool-call-started` record (the
   *   call of a tool that is not idempotent, about to run) returns once it is on disk, and
   *   with it everything appended before it; a power cut may lose the appends after the last
   *   such one (a model call is then made again, an idempotent tool runs again, an outcome
   *   of a tool that is not idempotent is lost and its call asks for a decision on resume),
   *   never a side effect's start. The connection runs `synchronous = NORMAL`, and `FULL`
   *   for those commits.
   * - `'full'`: every append returns once its records are fsynced; a power cut loses no
   *   append that returned. The slowest: one fsync per append.
   * - `'normal'`: no append waits for an fsync (the WAL is fsynced at checkpoints); a power
   *   cut may lose the last appends, a `tool-call-started` record included, so a tool that
   *   is not idempotent may run again after one.
   *
   * Default: `'side-effects'` when the journal opens `path` (on every open); with a given
   * `database`, left as the application set it (better-sqlite3 12 gives FULL to a
   * connection that switched the file to WAL and NORMAL to one that opened a file already
   * in WAL: set it). An append made inside the application's own transaction on a given
   * `database` is committed by that transaction, with the connection's setting.
   */
  readonly synchronous?: SqliteRunJournalSynchronous;
  /** The clock, in milliseconds, that TTLs are counted on (tests move it). Default `Date.now`. */
  readonly now?: () => number;
}

/**
 * When {@link SqliteRunJournal}'s commits are fsynced: see
 * {@link SqliteRunJournalOptions.synchronous}.
 *
 * @example
 * ```ts
 * import { SqliteRunJournal, type SqliteRunJournalSynchronous } from 'rx-advisors/run/sqlite';
 * const synchronous: SqliteRunJournalSynchronous = 'side-effects';
 * const journal = new SqliteRunJournal({ path: 'runs.db', synchronous });
 * ```
 */
export type SqliteRunJournalSynchronous = 'side-effects' | 'full' | 'normal';

/**
 * The defaults of {@link SqliteRunJournalOptions}.
 * @internal
 */
export const SQLITE_RUN_JOURNAL_DEFAULTS = {
  ...RUN_JOURNAL_LIMIT_DEFAULTS,
  tableName: 'rx_advisors_run_journal',
  now: Date.now,
};

/**
 * The checks of {@link SqliteRunJournalOptions}.
 * @internal
 */
export const SQLITE_RUN_JOURNAL_RULES: OptionRules<SqliteRunJournalOptions> = {
  ...RUN_JOURNAL_LIMIT_RULES,
  database: Rules.custom(
    "an open better-sqlite3 Database (import Database from 'better-sqlite3'; new Database('runs.db'))",
    (value) => isSqliteDatabase(value),
  ),
  path: Rules.nonEmptyString,
  // 63 characters at most, `_runs` and `_expires` included.
  tableName: Rules.sqlIdentifier(54),
  synchronous: Rules.oneOf('side-effects', 'full', 'normal'),
  now: Rules.func,
};
