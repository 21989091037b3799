import { Rules } from '../core/validate-options.js';
import { isPgPool } from './is-pg-pool.js';

/**
 * The option rules every PostgreSQL store shares, spread into its own rules: the `pg` Pool,
 * the table name (a SQL identifier of at most `maxTableNameLength` characters:
 * 63, PostgreSQL's limit, less what the store appends to it for its other tables) and
 * `createTable`. One home, so the chat memory and the run journal refuse a bad pool or
 * table name with the same `InvalidOptionsError`. `pool` is not `required` here: the run
 * journal wraps it in `Rules.required`, the chat memory checks a missing pool after its other
 * options (as it always has).
 * @internal
 * @example
 * ```ts
 * // internal: not exported from 'rx-advisors'
 * const SHARED = postgresStoreRules(54);
 * const RULES = { ...SHARED, pool: Rules.required(SHARED.pool) };
 * RULES.tableName.test('runs'); // true
 * ```
 * @param maxTableNameLength The longest table name the store accepts.
 * @returns The `pool`, `tableName` and `createTable` rules.
 */
export function postgresStoreRules(maxTableNameLength: number) {
  return {
    pool: Rules.custom(
      "a pg Pool (import pg from 'pg'; new pg.Pool({ connectionString }))",
      isPgPool,
    ),
    tableName: Rules.sqlIdentifier(maxTableNameLength),
    createTable: Rules.boolean,
  } as const;
}
