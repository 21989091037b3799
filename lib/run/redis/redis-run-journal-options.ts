import { Rules, type OptionRules } from '../../core/validate-options.js';
import { REDIS_STORE_RULES } from '../../redis/redis-store-rules.js';
import { RUN_JOURNAL_LIMIT_DEFAULTS, RUN_JOURNAL_LIMIT_RULES } from '../journal-limits.js';
import type { RunJournalLimits } from '../run-journal.js';

/**
 * What the Redis run journal needs of a Redis client: one method that sends a command and
 * resolves with its reply. The official `redis` client (`createClient()`, v4 and v5) has
 * it as is; for ioredis pass `{ sendCommand: (args) => redis.call(...args) }`. Every write
 * is one script, so the client may be shared with the rest of the application.
 *
 * @example
 * ```ts
 * import { createClient } from 'redis';
 * import type { RedisRunCommandClient } from 'rx-advisors/run/redis';
 *
 * const client: RedisRunCommandClient = await createClient({ url: process.env.REDIS_URL }).connect();
 * ```
 */
export interface RedisRunCommandClient {
  /**
   * @param args The command and its arguments (`['LRANGE', 'key', '0', '-1']`).
   * @returns The server's reply.
   */
  sendCommand(args: string[]): Promise<unknown>;
}

/**
 * Options of {@link RedisRunJournal}.
 *
 * @example
 * ```ts
 * import { createClient } from 'redis';
 * import type { RedisRunJournalOptions } from 'rx-advisors/run/redis';
 * const options: RedisRunJournalOptions = {
 *   client: await createClient({ url: process.env.REDIS_URL }).connect(),
 *   keyPrefix: 'support:runs:',
 *   commandTimeoutMs: 2_000,
 * };
 * ```
 */
export interface RedisRunJournalOptions extends RunJournalLimits {
  /** A connected client. The application connects and closes it (and listens to its `error` event). */
  readonly client: RedisRunCommandClient;
  /** Prefix of every key the journal writes. Default `rx-advisors:run:`. */
  readonly keyPrefix?: string;
  /**
   * How long one command may take before it fails with `'store-failure'`, in ms. A client
   * that queues commands while the server is away would otherwise make the run wait until
   * the server is back. Default 5,000.
   */
  readonly commandTimeoutMs?: number;
}

/**
 * The defaults of {@link RedisRunJournalOptions}.
 * @internal
 */
export const REDIS_RUN_JOURNAL_DEFAULTS = {
  ...RUN_JOURNAL_LIMIT_DEFAULTS,
  keyPrefix: 'rx-advisors:run:',
  commandTimeoutMs: 5_000,
};

/**
 * The checks of {@link RedisRunJournalOptions}.
 * @internal
 */
export const REDIS_RUN_JOURNAL_RULES: OptionRules<RedisRunJournalOptions> = {
  ...RUN_JOURNAL_LIMIT_RULES,
  ...REDIS_STORE_RULES,
  // In the place of the shared `client` rule (the key order, hence the first error, holds).
  client: Rules.required(REDIS_STORE_RULES.client),
  commandTimeoutMs: Rules.integer(1),
};
