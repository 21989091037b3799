import { Rules, type OptionRules } from '../../core/validate-options.js';
import { REDIS_STORE_RULES } from '../../redis/redis-store-rules.js';
import { DEFAULT_MAX_MEDIA_BYTES } from '../stored-media.js';
import type { RedisCommandClient } from './redis-command-client.js';

/**
 * Options of {@link RedisChatMemoryRepository}.
 * @example
 * ```ts
 * import { createClient } from 'redis';
 * import type { RedisChatMemoryRepositoryOptions } from 'rx-advisors/memory/redis';
 * const options: RedisChatMemoryRepositoryOptions = {
 *   client: await createClient({ url: process.env.REDIS_URL }).connect(),
 *   keyPrefix: 'support:memory:',
 * };
 * ```
 */
export interface RedisChatMemoryRepositoryOptions {
  /** A connected client (the official `redis` client, or anything with `sendCommand`). The application connects and closes it. */
  client: RedisCommandClient;
  /** Prefix of every key the repository writes; default `rx-advisors:memory:`. */
  keyPrefix?: string;
  /** How often `update` (and `append` on a conversation in the old layout) re-reads and retries when another writer got in first; default 16. */
  maxUpdateAttempts?: number;
  /**
   * The most inline media (images and files given as base64 or bytes, decoded) one message
   * may carry, in bytes; default 5 MiB. A larger message fails the write with a
   * `ChatMemoryMediaLimitError`.
   */
  maxMediaBytes?: number;
}

/**
 * The defaults of {@link RedisChatMemoryRepositoryOptions}.
 * @internal
 */
export const REDIS_CHAT_MEMORY_DEFAULTS = {
  keyPrefix: 'rx-advisors:memory:',
  maxUpdateAttempts: 16,
  maxMediaBytes: DEFAULT_MAX_MEDIA_BYTES,
} as const;

/**
 * The checks of {@link RedisChatMemoryRepositoryOptions}.
 * @internal
 */
export const REDIS_CHAT_MEMORY_RULES = {
  ...REDIS_STORE_RULES,
  maxUpdateAttempts: Rules.integer(1, 1000),
  maxMediaBytes: Rules.integer(0),
} as const satisfies OptionRules<RedisChatMemoryRepositoryOptions>;
