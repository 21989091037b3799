import type { Pool } from 'pg';

/**
 * Whether a value is a `pg` Pool the stores can use: an object with `query` (one statement
 * on any connection) and `connect` (a connection of its own, for a transaction). Duck
 * typed, so a copy of `pg` other than the application's passes. The one check of the
 * PostgreSQL stores' `pool` option.
 * @internal
 * @example
 * ```ts
 * // internal: not exported from 'rx-advisors'
 * isPgPool(new pg.Pool({ connectionString: process.env.DATABASE_URL })); // true
 * isPgPool({ query() {} }); // false
 * ```
 * @param value The `pool` option as given.
 * @returns `true` when `value` has `query` and `connect` methods.
 */
export function isPgPool(value: unknown): value is Pool {
  if (typeof value !== 'object' || value === null) return false;
  const pool = value as Record<string, unknown>;
  return typeof pool['query'] === 'function' && typeof pool['connect'] === 'function';
}
