import type { Pool } from 'pg';
import { Rules, type OptionRules } from '../../core/validate-options.js';
import { RUN_JOURNAL_LIMIT_DEFAULTS, RUN_JOURNAL_LIMIT_RULES } from '../journal-limits.js';
import type { RunJournalLimits } from '../run-journal.js';

/**
 * Options of {@link PostgresRunJournal}.
 *
 * @example
 * ```ts
 * import pg from 'pg';
 * import type { PostgresRunJournalOptions } from 'rx-advisors/run/postgres';
 * const options: PostgresRunJournalOptions = {
 *   pool: new pg.Pool({ connectionString: process.env.DATABASE_URL }),
 *   tableName: 'support_runs',
 * };
 * ```
 */
export interface PostgresRunJournalOptions extends RunJournalLimits {
  /** A `pg` Pool. The application creates and ends it (and listens to its `error` event). */
  readonly pool: Pool;
  /** The records' table; the runs' table is this name with `_runs`. Default `rx_advisors_run_journal`. */
  readonly tableName?: string;
  /**
   * Create the tables on first use (default `true`); `false` when a migration creates them
   * from {@link PostgresRunJournal.schemaSql}.
   */
  readonly createTable?: boolean;
}

/**
 * The defaults of {@link PostgresRunJournalOptions}.
 * @internal
 */
export const POSTGRES_RUN_JOURNAL_DEFAULTS = {
  ...RUN_JOURNAL_LIMIT_DEFAULTS,
  tableName: 'rx_advisors_run_journal',
  createTable: true,
};

/**
 * A table name the journal accepts: an SQL identifier short enough for `_runs` and
 * `_expires` to follow it within PostgreSQL's 63 characters.
 * @internal
 */
export const RUN_TABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,53}$/;

/**
 * The checks of {@link PostgresRunJournalOptions}.
 * @internal
 */
export const POSTGRES_RUN_JOURNAL_RULES: OptionRules<PostgresRunJournalOptions> = {
  ...RUN_JOURNAL_LIMIT_RULES,
  pool: Rules.required(
    Rules.custom(
      "a pg Pool (import pg from 'pg'; new pg.Pool({ connectionString }))",
      (value) =>
        typeof value === 'object' &&
        value !== null &&
        typeof (value as Record<string, unknown>)['query'] === 'function' &&
        typeof (value as Record<string, unknown>)['connect'] === 'function',
    ),
  ),
  tableName: Rules.custom(
    'a SQL identifier of at most 54 characters: letters, digits and underscores, not starting with a digit',
    (value) => typeof value === 'string' && RUN_TABLE_NAME.test(value),
  ),
  createTable: Rules.boolean,
};
