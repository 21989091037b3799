import { Rules, type OptionRule } from '../../core/validate-options.js';

/**
 * The default idle timeout of a model call, in milliseconds: 120 s. Streaming APIs send
 * an event every few hundred milliseconds once a model writes; two minutes of silence is
 * almost always a stalled connection. A reasoning model that thinks without streaming its
 * reasoning (OpenAI o-series over Chat Completions, Responses without reasoning summaries,
 * high effort) can be silent longer: give such models a larger `idleTimeout`.
 *
 * @example
 * ```ts
 * import { DEFAULT_IDLE_TIMEOUT } from 'rx-advisors/provider-kit';
 * console.log(DEFAULT_IDLE_TIMEOUT); // 120000
 * ```
 */
export const DEFAULT_IDLE_TIMEOUT = 120_000;

/** The longest delay a Node or browser timer can hold (2^31 - 1 ms); longer ones fire at once. */
const MAX_TIMER_DELAY = 2_147_483_647;

/**
 * The rule every `idleTimeout` option follows: a positive integer of milliseconds up to
 * 2^31 - 1 (a timer's limit), or `Infinity` to turn the timeout off.
 *
 * @example
 * ```ts
 * import { idleTimeoutRule } from 'rx-advisors/provider-kit';
 *
 * idleTimeoutRule.test(30_000); // true
 * idleTimeoutRule.test(0); // false
 * idleTimeoutRule.expected; // what the InvalidOptionsError message says
 * ```
 */
export const idleTimeoutRule: OptionRule = Rules.custom(
  `a positive integer of milliseconds up to ${MAX_TIMER_DELAY}, or Infinity (no timeout)`,
  (value) =>
    value === Infinity ||
    (typeof value === 'number' && Number.isInteger(value) && value > 0 && value <= MAX_TIMER_DELAY),
);
