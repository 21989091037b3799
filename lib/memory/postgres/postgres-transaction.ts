import type { ClientBase, Pool } from 'pg';
import { postgresConnection, retryOnceOnDrop } from './postgres-connection.js';

/** Marks a failure that came once `COMMIT` was sent: its outcome is unknown. */
const COMMITTING = Symbol('rx-advisors.postgres.committing');

/**
 * One transaction on one connection, holding an advisory lock until it ends: `BEGIN`, the
 * lock, `work`, `COMMIT`; on a failure `ROLLBACK` and the error again. A client whose
 * transaction failed (or whose connection broke) is discarded, never reused. A connection
 * dropped before `COMMIT` was sent (a stale pooled connection after a server restart)
 * rolled the transaction back on the server: it is run again, once, on a fresh
 * connection. A connection dropped during `COMMIT` leaves the outcome unknown: only an
 * `idempotent` transaction (one that writes a whole conversation, or deletes it) is run
 * again then.
 * @internal
 * @param pool Where the connection comes from.
 * @param lock The lock statement (`$1`: the key), see `postgresStatements`; `undefined`
 *   when `work` takes the lock itself.
 * @param key The lock's key.
 * @param work The statements of the transaction.
 * @param options `listen`: watch the client's `error` event while the transaction runs;
 *   `idempotent`: running it twice leaves what running it once does.
 */
export function lockedTransaction(
  pool: Pool,
  lock: string | undefined,
  key: string,
  work: (client: ClientBase) => Promise<void>,
  options: { listen: boolean; idempotent?: boolean },
): Promise<void> {
  return retryOnceOnDrop(
    (fresh) => attempt(pool, fresh, lock, key, work, options.listen),
    (error) => options.idempotent === true || !committing(error),
  );
}

async function attempt(
  pool: Pool,
  fresh: boolean,
  lock: string | undefined,
  key: string,
  work: (client: ClientBase) => Promise<void>,
  listen: boolean,
): Promise<void> {
  const { client, release } = await postgresConnection(pool, fresh);
  let broken: Error | undefined;
  let sentCommit = false;
  // The server may go away between two queries: without a listener, the client's
  // 'error' event would crash the process.
  const onError = (error: Error) => (broken = error);
  if (listen) client.on('error', onError);
  try {
    await client.query('BEGIN');
    if (lock !== undefined) await client.query(lock, [key]);
    await work(client);
    sentCommit = true;
    await client.query('COMMIT');
  } catch (error) {
    broken = error instanceof Error ? error : new Error(String(error));
    // A lost connection cannot roll back; the server drops the transaction anyway.
    await client.query('ROLLBACK').catch(() => undefined);
    if (sentCommit && typeof error === 'object' && error !== null) {
      Object.defineProperty(error, COMMITTING, { value: true });
    }
    throw error;
  } finally {
    if (listen) client.off('error', onError);
    // A client whose transaction failed is discarded, never reused half-way.
    release(broken);
  }
}

function committing(error: unknown): boolean {
  return typeof error === 'object' && error !== null && COMMITTING in error;
}
