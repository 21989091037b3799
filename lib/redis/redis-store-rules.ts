import { Rules } from '../core/validate-options.js';
import { isRedisCommandClient } from './is-redis-command-client.js';

/**
 * The option rules every Redis store shares, spread into its own rules: a connected client
 * and the prefix of every key it writes. One home, so the chat memory and the run journal
 * refuse a bad client with the same `InvalidOptionsError`, word for word. `client` is not
 * `required` here: the run journal wraps it in `Rules.required`, the chat memory checks a
 * missing client after its other options (as it always has).
 * @internal
 * @example
 * ```ts
 * // internal: not exported from 'rx-advisors'
 * const RULES = {
 *   ...REDIS_STORE_RULES,
 *   client: Rules.required(REDIS_STORE_RULES.client),
 *   commandTimeoutMs: Rules.integer(1),
 * };
 * ```
 */
export const REDIS_STORE_RULES = {
  client: Rules.custom(
    "a connected Redis client with sendCommand (import { createClient } from 'redis')",
    isRedisCommandClient,
  ),
  keyPrefix: Rules.custom('a string', (value) => typeof value === 'string'),
} as const;
