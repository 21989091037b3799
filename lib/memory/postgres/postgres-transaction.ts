import type { Pool, PoolClient } from 'pg';

/**
 * One transaction on one pooled connection, holding an advisory lock until it ends:
 * `BEGIN`, the lock, `work`, `COMMIT`; on a failure `ROLLBACK` and the error again. A
 * client whose transaction failed (or whose connection broke) is discarded, never reused.
 * @internal
 * @param pool Where the connection comes from.
 * @param lock The lock statement (`$1`: the key), see `postgresStatements`.
 * @param key The lock's key.
 * @param work The statements of the transaction.
 * @param options `listen`: watch the client's `error` event while the transaction runs.
 */
export async function lockedTransaction(
  pool: Pool,
  lock: string,
  key: string,
  work: (client: PoolClient) => Promise<void>,
  options: { listen: boolean },
): Promise<void> {
  const client = await pool.connect();
  let broken: Error | undefined;
  // The server may go away between two queries: without a listener, the client's
  // 'error' event would crash the process.
  const onError = (error: Error) => (broken = error);
  if (options.listen) client.on('error', onError);
  try {
    await client.query('BEGIN');
    await client.query(lock, [key]);
    await work(client);
    await client.query('COMMIT');
  } catch (error) {
    broken = error instanceof Error ? error : new Error(String(error));
    // A lost connection cannot roll back; the server drops the transaction anyway.
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    if (options.listen) client.off('error', onError);
    // A client whose transaction failed is discarded, never reused half-way.
    client.release(broken);
  }
}
