import type { ClientBase, Pool, QueryResult, QueryResultRow } from 'pg';
import { errorCodeOf, errorMessageOf } from '../../errors/error-details.js';

/** A connection for one unit of work, and how to give it back. @internal */
export interface PostgresConnection {
  readonly client: ClientBase;
  /** Gives the connection back; with an error it is closed, never reused. */
  readonly release: (error?: Error) => void;
}

/** The constructor `pg.Pool` makes its clients with (pg-pool's `Client`). */
type ClientConstructor = new (options: unknown) => ClientBase & { end(): Promise<void> };

/**
 * A connection from the pool, or, when `fresh`, a new one opened with the pool's own
 * options and client class, outside the pool: after a dropped connection the pool's idle
 * connections may be as stale as the one that failed, and a retry must not land on one.
 * A pool that does not expose its client class (not `pg.Pool`) gives a pooled one.
 * @internal
 */
export async function postgresConnection(pool: Pool, fresh: boolean): Promise<PostgresConnection> {
  const Client = (pool as unknown as { Client?: ClientConstructor }).Client;
  if (!fresh || typeof Client !== 'function') {
    const pooled = await pool.connect();
    return { client: pooled, release: (error) => pooled.release(error) };
  }
  const client = new Client(pool.options);
  // Without a listener, an 'error' event of a connection lost between two queries would
  // crash the process; the failing query reports it.
  client.on('error', () => undefined);
  try {
    await client.connect();
  } catch (error) {
    await client.end().catch(() => undefined);
    throw error;
  }
  return { client, release: () => void client.end().catch(() => undefined) };
}

/** SQLSTATEs of a connection the server ended (shutdown, crash) or that failed. */
const DROPPED_SQLSTATES = new Set(['57P01', '57P02', '08000', '08003', '08006']);
/** Node socket codes of a connection the peer dropped. */
const DROPPED_SOCKET_CODES = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED']);
/** What `pg` says, without a code, when the socket of a connection ended. */
const DROPPED_MESSAGES = [
  'Connection terminated unexpectedly',
  'Connection terminated',
  'Client has encountered a connection error and is not queryable',
];

/**
 * Whether a failure is a connection that was established and then dropped (a stale
 * pooled connection after a server restart, a failover): the case a retry on a fresh
 * connection fixes. A refused connection (the server is down) is not.
 * @internal
 */
export function isDroppedConnection(error: unknown): boolean {
  const code = errorCodeOf(error);
  if (DROPPED_SQLSTATES.has(code) || DROPPED_SOCKET_CODES.has(code)) return true;
  const message = errorMessageOf(error);
  return code === '' && DROPPED_MESSAGES.some((known) => message.startsWith(known));
}

/**
 * Runs `attempt` on a pooled connection; when it fails on a dropped connection and
 * `safeToRepeat` says so for that failure, runs it once more on a fresh connection.
 * @internal
 */
export async function retryOnceOnDrop<T>(
  attempt: (fresh: boolean) => Promise<T>,
  safeToRepeat: (error: unknown) => boolean,
): Promise<T> {
  try {
    return await attempt(false);
  } catch (error) {
    if (!isDroppedConnection(error) || !safeToRepeat(error)) throw error;
    return attempt(true);
  }
}

/**
 * One statement on a pooled connection (its own transaction, autocommit); when the
 * connection turns out dropped, once more on a fresh one, with `values(true)` instead of
 * `values(false)`: a statement that is not safe to repeat as it is tells by its values.
 * @internal
 * @param pool Where the connection comes from.
 * @param text The statement.
 * @param values Its values; `again`: whether this is the second attempt.
 */
export function queryRetryingOnDrop<R extends QueryResultRow>(
  pool: Pool,
  text: string,
  values: (again: boolean) => unknown[] | undefined,
): Promise<QueryResult<R>> {
  return retryOnceOnDrop(
    async (fresh) => {
      if (!fresh) return pool.query<R>(text, values(false));
      const { client, release } = await postgresConnection(pool, true);
      try {
        return await client.query<R>(text, values(true));
      } finally {
        release();
      }
    },
    () => true,
  );
}
