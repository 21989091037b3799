import { Order } from '../advisor-api/order.js';
import { ADVISOR_IDENTITY_RULES } from '../advisor-api/validate-advisor-identity.js';
import { Rules, type OptionRules } from '../core/validate-options.js';
import { ProviderError } from '../errors/provider-error.js';

/**
 * How long to wait before each retry: exponential (`initialDelay * factor^(n-1)`, capped at
 * `maxDelay`, then jittered by `RetryAdvisorOptions.jitter`) or a function of the failed
 * attempt (from 1) and its error, used as is (no jitter).
 *
 * @example
 * ```ts
 * import { RetryAdvisor, type RetryBackoff } from 'rx-advisors';
 * const linear: RetryBackoff = (attempt) => attempt * 1000;
 * new RetryAdvisor({ backoff: linear });
 * ```
 */
export type RetryBackoff =
  | { initialDelay?: number; factor?: number; maxDelay?: number }
  | ((attempt: number, error: unknown) => number);

/**
 * Options of {@link RetryAdvisor}.
 *
 * @example
 * ```ts
 * import { RetryAdvisor, type RetryAdvisorOptions } from 'rx-advisors';
 * const options: RetryAdvisorOptions = {
 *   maxAttempts: 5,
 *   backoff: { initialDelay: 250, maxDelay: 4000 },
 *   jitter: 1,
 *   maxDelay: 30_000,
 * };
 * new RetryAdvisor(options);
 * ```
 */
export interface RetryAdvisorOptions {
  /** Model calls in all, the first one included; default 3. */
  maxAttempts?: number;
  /** Default `{ initialDelay: 500, factor: 2, maxDelay: 10_000 }` (milliseconds, RxJS time). */
  backoff?: RetryBackoff;
  /**
   * How much of the exponential backoff is random, from 0 to 1: the wait is
   * `delay * (1 - jitter * random())`. `1` is "full jitter" (anywhere from 0 to the delay),
   * `0.5` "equal jitter" (from half the delay to all of it), `0` none. Default `0.5`: clients
   * that failed together (one shared rate limit) spread out, yet none retries at once. A
   * function `backoff` is used as is.
   */
  jitter?: number;
  /** The random source of the jitter, returning a number in [0, 1]; default `Math.random`. */
  random?: () => number;
  /**
   * The longest wait before a retry, in milliseconds; default `60_000`. A longer backoff is
   * cut to it. A provider's Retry-After above it ends the retries: the `ProviderError` is
   * re-thrown at once, with `retryAfter` telling the caller when to try again.
   */
  maxDelay?: number;
  /**
   * Wait at least a `ProviderError`'s `retryAfter` (the provider's Retry-After header)
   * before retrying; default `true`.
   */
  respectRetryAfter?: boolean;
  /** Also retry when the answer is empty (no text, no tool calls); default `true`. */
  retryOnEmpty?: boolean;
  /** Which errors to retry; default: a `ProviderError` whose `retryable` is true. */
  isRetryable?: (error: unknown) => boolean;
  /**
   * Default `Order.RETRY` (`LOWEST_PRECEDENCE - 1000`): next to the model, inside the tool
   * loop, so a failed model call is retried alone (tools that already ran are not run again).
   */
  order?: number;
  /** Default `'retry'`. */
  name?: string;
}

/** Exponential backoff without its options: `RetryBackoff`'s object form, all set. */
type ExponentialBackoff = Required<Exclude<RetryBackoff, (...args: never[]) => unknown>>;

/**
 * The defaults of the exponential {@link RetryBackoff}.
 * @internal
 */
export const RETRY_BACKOFF_DEFAULTS: Readonly<ExponentialBackoff> = {
  initialDelay: 500,
  factor: 2,
  maxDelay: 10_000,
};

/**
 * The defaults of {@link RetryAdvisorOptions}.
 * @internal
 */
export const RETRY_ADVISOR_DEFAULTS = {
  maxAttempts: 3,
  backoff: RETRY_BACKOFF_DEFAULTS,
  jitter: 0.5,
  random: Math.random,
  maxDelay: 60_000,
  respectRetryAfter: true,
  retryOnEmpty: true,
  isRetryable: (error: unknown): boolean => ProviderError.isInstance(error) && error.retryable,
  order: Order.RETRY,
  name: 'retry',
} as const satisfies Required<RetryAdvisorOptions>;

/**
 * The rules of {@link RetryAdvisorOptions}.
 * @internal
 */
export const RETRY_ADVISOR_RULES: OptionRules<RetryAdvisorOptions> = {
  ...ADVISOR_IDENTITY_RULES,
  maxAttempts: Rules.integer(1),
  backoff: Rules.custom(
    'a function (attempt, error) => milliseconds, or { initialDelay?, factor?, maxDelay? }',
    (value) => typeof value === 'function' || (typeof value === 'object' && value !== null),
  ),
  jitter: Rules.number(0, 1),
  random: Rules.custom('a function returning a number in [0, 1]', (v) => typeof v === 'function'),
  maxDelay: Rules.number(0),
  respectRetryAfter: Rules.boolean,
  retryOnEmpty: Rules.boolean,
  isRetryable: Rules.func,
};

/**
 * The rules of the exponential {@link RetryBackoff} (reported as `backoff.<option>`).
 * @internal
 */
export const RETRY_BACKOFF_RULES: OptionRules<ExponentialBackoff> = {
  initialDelay: Rules.number(0),
  factor: Rules.number(0),
  maxDelay: Rules.number(0),
};
