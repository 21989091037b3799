/**
 * The code of a thrown value: its `code` property when that is a string (SQLite's
 * `'SQLITE_BUSY'`, PostgreSQL's SQLSTATE `'57P01'`, Node's `'ECONNREFUSED'`), else `''`.
 * The one place the library reads a driver's error code; what a code means is written
 * beside the store that raises it (`lib/sqlite/`, `lib/memory/postgres/`, …).
 * @internal
 * @example
 * ```ts
 * // internal: not exported from 'rx-advisors'
 * errorCodeOf(Object.assign(new Error('busy'), { code: 'SQLITE_BUSY' })); // 'SQLITE_BUSY'
 * errorCodeOf('boom'); // ''
 * ```
 * @param error Anything thrown.
 * @returns The code, or `''`.
 */
export function errorCodeOf(error: unknown): string {
  if (typeof error !== 'object' || error === null) return '';
  const code = (error as Record<string, unknown>)['code'];
  return typeof code === 'string' ? code : '';
}

/**
 * The message of a thrown value: an `Error`'s `message`, else the value as a string.
 * @internal
 * @example
 * ```ts
 * // internal: not exported from 'rx-advisors'
 * errorMessageOf(new Error('disk full')); // 'disk full'
 * errorMessageOf(42); // '42'
 * ```
 * @param error Anything thrown.
 * @returns Its message.
 */
export function errorMessageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
