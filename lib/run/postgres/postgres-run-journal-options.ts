import type { Pool } from 'pg';
import { Rules, type OptionRules } from '../../core/validate-options.js';
import { postgresStoreRules } from '../../postgres/postgres-store-rules.js';
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
 * The rules of the journal's own options (`pool`, `tableName`, `createTable`): a table name
 * short enough for `_runs` and `_expires` to follow it within PostgreSQL's 63 characters.
 * @internal
 */
export const POSTGRES_RUN_STORE_RULES = postgresStoreRules(54);

/**
 * The checks of {@link PostgresRunJournalOptions}.
 * @internal
 */
export const POSTGRES_RUN_JOURNAL_RULES: OptionRules<PostgresRunJournalOptions> = {
  ...RUN_JOURNAL_LIMIT_RULES,
  ...POSTGRES_RUN_STORE_RULES,
  // In the place of the shared `pool` rule (the key order, hence the first error, holds).
  pool: Rules.required(POSTGRES_RUN_STORE_RULES.pool),
};
