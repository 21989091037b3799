import { Rules, type OptionRules } from '../../core/validate-options.js';
import type { RedisStreamsClient } from './redis-streams-client.js';

/**
 * Options of `RedisResumableStreamStore` and `RedisResumableStreams`.
 * @example
 * ```ts
 * import { createClient } from 'redis';
 * import type { RedisResumableStreamStoreOptions } from 'rx-advisors/sse/redis';
 * const options: RedisResumableStreamStoreOptions = {
 *   client: await createClient({ url: process.env.REDIS_URL }).connect(),
 *   ttl: 5 * 60_000,
 * };
 * ```
 */
export interface RedisResumableStreamStoreOptions {
  /** A connected client (the official `redis` client); the store opens two more per process with `duplicate()`. */
  client: RedisStreamsClient;
  /** Prefix of every key and of the pub/sub channel; default `rx-advisors:sse:`. */
  keyPrefix?: string;
  /** Events kept per stream for clients that reconnect (the oldest go first). Default 1000. */
  maxBufferedFrames?: number;
  /** Characters of the events kept per stream (the oldest go first). Default 8388608 (8 Mi). */
  maxBufferedBytes?: number;
  /**
   * Milliseconds a stream lives without a connected reader, on any instance (Redis key
   * expiry): a running stream is then ended (its model request aborted); a finished one
   * stays resumable that long. Default 60000.
   */
  ttl?: number;
  /** Streams kept per owner; one more ends the oldest finished one, or fails with a `ResumableStreamLimitError`. Default 10. */
  maxStreamsPerOwner?: number;
  /**
   * Milliseconds between the heartbeats of readers and producers (at most ttl / 3 is used).
   * An instance that has not checked in for three heartbeats (at least 3 s, at most `ttl`)
   * is taken for dead: readers end its running streams (or restore them, with `restore`).
   * Default 5000.
   */
  heartbeatInterval?: number;
  /** Milliseconds a blocking read waits on the server before it is sent again. Default 1000. */
  blockTimeout?: number;
  /**
   * Milliseconds the store waits for Redis, whatever the client's offline queue: a command
   * not answered within it (at least 1000) fails with a `RedisUnavailableError` (an append:
   * its stream ends and the model call stops), and readers whose connection keeps failing
   * that long get the protocol's error event. Default 10000.
   */
  readRetry?: number;
}

/** The defaults of {@link RedisResumableStreamStoreOptions}. @internal */
export const REDIS_STORE_DEFAULTS = {
  keyPrefix: 'rx-advisors:sse:',
  maxBufferedFrames: 1000,
  maxBufferedBytes: 8 * 1024 * 1024,
  ttl: 60_000,
  maxStreamsPerOwner: 10,
  heartbeatInterval: 5000,
  blockTimeout: 1000,
  readRetry: 10_000,
} as const;

/** @internal */
export const REDIS_STORE_RULES = {
  client: Rules.required(
    Rules.custom(
      "a connected Redis client with sendCommand and duplicate (import { createClient } from 'redis')",
      (value) =>
        typeof value === 'object' &&
        value !== null &&
        typeof (value as Record<string, unknown>)['sendCommand'] === 'function' &&
        typeof (value as Record<string, unknown>)['duplicate'] === 'function',
    ),
  ),
  keyPrefix: Rules.custom('a string', (value) => typeof value === 'string'),
  maxBufferedFrames: Rules.integer(1),
  maxBufferedBytes: Rules.integer(1),
  ttl: Rules.integer(1000),
  maxStreamsPerOwner: Rules.integer(1),
  heartbeatInterval: Rules.integer(10),
  blockTimeout: Rules.integer(10),
  readRetry: Rules.integer(0),
} as const satisfies OptionRules<RedisResumableStreamStoreOptions>;

/** The least time a command may wait for its answer, whatever `readRetry`. */
const MIN_COMMAND_DEADLINE_MS = 1000;
/** The least time a producer's check-in counts (at most `ttl`). */
const MIN_PRODUCER_LEASE_MS = 3000;

/**
 * The store's timings from its options: the heartbeat (at most ttl / 3), the producer lease
 * (three heartbeats, 3 s to ttl: a dead instance's streams are noticed then, and restored)
 * and the command deadline.
 * @internal
 */
export function storeTimings(options: {
  ttl: number;
  heartbeatInterval: number;
  readRetry: number;
}): {
  heartbeat: number;
  lease: number;
  commandDeadline: number;
} {
  const { ttl, heartbeatInterval, readRetry } = options;
  const heartbeat = Math.max(10, Math.min(heartbeatInterval, Math.floor(ttl / 3)));
  return {
    heartbeat,
    lease: Math.min(ttl, Math.max(3 * heartbeat, MIN_PRODUCER_LEASE_MS)),
    commandDeadline: Math.max(readRetry, MIN_COMMAND_DEADLINE_MS),
  };
}
