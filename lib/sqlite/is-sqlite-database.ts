import type BetterSqlite3 from 'better-sqlite3';

/**
 * Whether a value is an open better-sqlite3 `Database`: an object with `prepare`,
 * `transaction` and the `methods` a store needs besides (`pragma`, `loadExtension`). Duck
 * typed, so a copy of better-sqlite3 other than ours passes. The one check of every SQLite
 * store's `database` option.
 * @internal
 * @example
 * ```ts
 * // internal: not exported from 'rx-advisors'
 * isSqliteDatabase(new Database(':memory:'), 'pragma'); // true
 * isSqliteDatabase({ prepare() {} }, 'pragma'); // false
 * ```
 * @param value The `database` option as given.
 * @param methods The methods the store calls besides `prepare` and `transaction`.
 * @returns `true` when every method is there.
 */
export function isSqliteDatabase(
  value: unknown,
  ...methods: readonly string[]
): value is BetterSqlite3.Database {
  if (typeof value !== 'object' || value === null) return false;
  const db = value as Record<string, unknown>;
  return ['prepare', 'transaction', ...methods].every((name) => typeof db[name] === 'function');
}
