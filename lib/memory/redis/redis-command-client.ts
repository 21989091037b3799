/**
 * What the Redis chat memory needs of a Redis client: one method that sends a command and
 * resolves with its reply. The official `redis` client (`createClient()`, v4 and v5) has
 * it as is; for ioredis pass `{ sendCommand: (args) => redis.call(...args) }`.
 *
 * Every write is one `EVALSHA` of a Lua script (atomic on the server; `EVAL` when the
 * server lost the script), so the client may be shared with the rest of the application:
 * no `MULTI`/`WATCH` state on the connection.
 *
 * @example
 * ```ts
 * import { createClient } from 'redis';
 * import type { RedisCommandClient } from 'rx-advisors/memory/redis';
 *
 * const redis = await createClient({ url: process.env.REDIS_URL }).connect();
 * const client: RedisCommandClient = redis;
 * ```
 */
export interface RedisCommandClient {
  /**
   * @param args The command and its arguments (`['HGET', 'key', 'field']`).
   * @returns The server's reply.
   */
  sendCommand(args: string[]): Promise<unknown>;
}
