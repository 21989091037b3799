/**
 * What every Redis store needs of a client: one method that sends a command and resolves
 * with its reply (the public `RedisCommandClient` of `rx-advisors/memory/redis` and
 * `RedisRunCommandClient` of `rx-advisors/run/redis` are this shape).
 * @internal
 */
export interface RedisSendCommand {
  /**
   * @param args The command and its arguments.
   * @returns The server's reply.
   */
  sendCommand(args: string[]): Promise<unknown>;
}

/**
 * Whether a value is a Redis client the stores can use: an object with a `sendCommand`
 * method. Duck typed, so the official `redis` client (v4, v5) passes as is, and so does
 * an adapter over ioredis (`{ sendCommand: (args) => redis.call(...args) }`). The one
 * check of the Redis stores' `client` option.
 * @internal
 * @example
 * ```ts
 * // internal: not exported from 'rx-advisors'
 * isRedisCommandClient(await createClient().connect()); // true
 * isRedisCommandClient({ get() {} }); // false
 * ```
 * @param value The `client` option as given.
 * @returns `true` when `value` has a `sendCommand` method.
 */
export function isRedisCommandClient(value: unknown): value is RedisSendCommand {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as Record<string, unknown>)['sendCommand'] === 'function'
  );
}
