import type BetterSqlite3 from 'better-sqlite3';
import { Rules, type OptionRules } from '../../core/validate-options.js';
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
   * When a commit is on disk (`PRAGMA synchronous`, set on the connection: for a given
   * `database`, its other tables too). `'full'`: an append returns once its records are
   * fsynced, so a power cut or an OS crash loses no append that returned (a
   * `tool-call-started` record included: a side effect is never repeated silently). `'normal'`
   * (WAL): a crash or a kill of the process loses nothing either, but a power cut or an OS
   * crash may lose the last appends (never damage the file); an append costs no fsync.
   * Default: `'full'` when the journal opens `path`; with a given `database`, left as the
   * application set it (better-sqlite3 12 gives FULL to a connection that switched the file
   * to WAL and NORMAL to one that opened a file already in WAL: set it).
   */
  readonly synchronous?: 'full' | 'normal';
  /** The clock, in milliseconds, that TTLs are counted on (tests move it). Default `Date.now`. */
  readonly now?: () => number;
}

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
    (value) => {
      if (typeof value !== 'object' || value === null) return false;
      const db = value as Record<string, unknown>;
      return typeof db['prepare'] === 'function' && typeof db['transaction'] === 'function';
    },
  ),
  path: Rules.nonEmptyString,
  // 63 characters at most, `_runs` and `_expires` included.
  tableName: Rules.custom(
    'a SQL identifier of at most 54 characters: letters, digits and underscores, not starting with a digit',
    (value) => typeof value === 'string' && /^[A-Za-z_][A-Za-z0-9_]{0,53}$/.test(value),
  ),
  synchronous: Rules.oneOf('full', 'normal'),
  now: Rules.func,
};
