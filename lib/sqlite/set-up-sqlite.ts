import type BetterSqlite3 from 'better-sqlite3';
import { errorCodeOf } from '../errors/error-details.js';

/**
 * Sets a SQLite store up on its database: switches a file database to WAL (readers never
 * wait for the writer), then runs `work` (creating the store's tables, preparing its
 * statements), retrying the two while SQLite answers `SQLITE_BUSY` for at most the
 * connection's busy timeout (better-sqlite3's `timeout`, 5 s by default) counted from the
 * first try.
 *
 * The busy timeout alone does not cover this step. When two processes set up the same new
 * file at once, each holds a read lock and wants the write lock; SQLite then does not call
 * the busy handler (waiting could deadlock) and fails one of them at once with
 * `SQLITE_BUSY`. Retrying after a short, random pause lets the other finish first. Every
 * step of a setup is idempotent (`CREATE … IF NOT EXISTS`, columns added when missing), so
 * a retry is safe. The pause blocks the thread (better-sqlite3 is synchronous); it happens
 * only on this contention, once per store.
 * @internal
 * @example
 * ```ts
 * // internal: not exported from 'rx-advisors'
 * const statements = setUpSqlite(db, () => {
 *   db.exec('CREATE TABLE IF NOT EXISTS notes (id INTEGER PRIMARY KEY, text TEXT)');
 *   return { insert: db.prepare('INSERT INTO notes (text) VALUES (?)') };
 * });
 * ```
 * @param db The open database.
 * @param work The rest of the setup: idempotent.
 * @returns What `work` returned.
 */
export function setUpSqlite<T>(db: BetterSqlite3.Database, work: () => T): T {
  const started = Date.now();
  let deadline: number | undefined;
  for (let pause = 1; ; pause = Math.min(pause * 2, MAX_PAUSE_MS)) {
    try {
      if (!db.memory && !db.readonly) db.pragma('journal_mode = WAL');
      return work();
    } catch (error) {
      if (!errorCodeOf(error).startsWith('SQLITE_BUSY')) throw error;
      deadline ??= started + busyTimeoutOf(db);
      if (Date.now() >= deadline) throw error;
      sleep(Math.min(1 + Math.random() * pause, Math.max(deadline - Date.now(), 0)));
    }
  }
}

/** The longest pause between two tries, in ms. */
const MAX_PAUSE_MS = 50;

/** The connection's busy timeout in ms (0 when it has none: no retry). */
function busyTimeoutOf(db: BetterSqlite3.Database): number {
  const timeout: unknown = db.pragma('busy_timeout', { simple: true });
  return typeof timeout === 'number' && timeout > 0 ? timeout : 0;
}

/** Blocks the thread for `ms` milliseconds. */
function sleep(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}
