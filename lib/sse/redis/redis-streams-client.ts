/**
 * What `RedisResumableStreamStore` needs of a Redis client: commands, and `duplicate()` for
 * the two connections it opens per process (one for blocking stream reads, one for
 * pub/sub). The official `redis` client (`createClient()`, v4 and v5) fits as is.
 *
 * @example
 * ```ts
 * import { createClient } from 'redis';
 * import type { RedisStreamsClient } from 'rx-advisors/sse/redis';
 *
 * const redis = await createClient({ url: process.env.REDIS_URL }).connect();
 * const client: RedisStreamsClient = redis;
 * ```
 */
export interface RedisStreamsClient {
  /**
   * @param args The command and its arguments.
   * @param options `abortSignal`: the store aborts commands still queued in the client once
   *   Redis has not answered within `readRetry` (node-redis v5 drops them from its queue;
   *   a client that ignores it is still failed on time, but may send them later).
   * @returns The server's reply (RESP2 shapes: arrays, strings, numbers, null).
   */
  sendCommand(args: string[], options?: { abortSignal?: AbortSignal }): Promise<unknown>;
  /** @returns A new, unconnected client with the same options. */
  duplicate(): RedisStreamsConnection;
}

/**
 * A connection the store opens with `duplicate()`.
 * @example
 * ```ts partial
 * import type { RedisStreamsConnection } from 'rx-advisors/sse/redis';
 * const connection: RedisStreamsConnection = client.duplicate();
 * ```
 */
export interface RedisStreamsConnection {
  /** Connects. */
  connect(): Promise<unknown>;
  /** Sends one command. */
  sendCommand(args: string[]): Promise<unknown>;
  /** Subscribes to a pub/sub channel. */
  subscribe(channel: string, listener: (message: string) => void): Promise<unknown>;
  /** Listens to connection errors (the client reconnects by itself). */
  on(event: 'error', listener: (error: Error) => void): unknown;
  /** Closes at once (node-redis v5); `disconnect` is v4's name. */
  destroy?(): unknown;
  /** v4's name of `destroy`. */
  disconnect?(): unknown;
}
