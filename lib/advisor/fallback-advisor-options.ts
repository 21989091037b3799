import { asyncScheduler, type SchedulerLike } from 'rxjs';
import { Order } from '../advisor-api/order.js';
import { ADVISOR_IDENTITY_RULES } from '../advisor-api/validate-advisor-identity.js';
import type { ChatModel } from '../core/chat-model.js';
import { Rules, type OptionRules } from '../core/validate-options.js';
import { ProviderError } from '../errors/provider-error.js';

/**
 * Options of `FallbackAdvisor`.
 * @example
 * ```ts
 * import { FallbackAdvisor, type FallbackAdvisorOptions } from 'rx-advisors';
 * import { MockChatModel } from 'rx-advisors/testing';
 *
 * const options: FallbackAdvisorOptions = {
 *   models: [model, MockChatModel.script([{ text: 'From the backup.' }])],
 *   shouldFallback: (error) => error instanceof Error && /quota/i.test(error.message),
 * };
 * new FallbackAdvisor(options);
 * ```
 */
export interface FallbackAdvisorOptions {
  /**
   * The models that may answer, in order of preference (at least one). A call starts
   * with the first one not waiting out a Retry-After; when an attempt fails with an error
   * that falls back, the next such model after it answers. Each model answers a call at
   * most once.
   */
  models: readonly ChatModel[];
  /**
   * Which failures fall back to the next model; default: a `ProviderError` whose
   * `retryable` is true (429, 5xx, a dropped connection, an idle timeout). Any other
   * failure is the call's error at once.
   */
  shouldFallback?: (error: unknown, model: ChatModel) => boolean;
  /**
   * Skip a model that failed with a Retry-After (`ProviderError.retryAfter`) until that
   * time has passed, in every call through this advisor; default `true`.
   */
  respectRetryAfter?: boolean;
  /** The clock of Retry-After (its `now()`); default `asyncScheduler` (virtual in marble tests). */
  scheduler?: SchedulerLike;
  /**
   * Default `Order.FALLBACK` (`LOWEST_PRECEDENCE - 2000`): inside the tool loop, so a
   * failed round moves to the next model without running tools again, and outside
   * `RetryAdvisor`, which then retries each model before this advisor moves on.
   */
  order?: number;
  /** Default `'fallback'`; also the `advisor` of the `retry` chunks. */
  name?: string;
}

/**
 * The defaults of {@link FallbackAdvisorOptions}.
 * @internal
 */
export const FALLBACK_ADVISOR_DEFAULTS = {
  shouldFallback: (error: unknown): boolean => ProviderError.isInstance(error) && error.retryable,
  respectRetryAfter: true,
  scheduler: asyncScheduler,
  order: Order.FALLBACK,
  name: 'fallback',
} as const satisfies Required<Omit<FallbackAdvisorOptions, 'models'>>;

/**
 * The rules of {@link FallbackAdvisorOptions}.
 * @internal
 */
export const FALLBACK_ADVISOR_RULES: OptionRules<FallbackAdvisorOptions> = {
  ...ADVISOR_IDENTITY_RULES,
  models: Rules.required(
    Rules.custom(
      'a non-empty array of chat models (objects with a stream(request) method)',
      (value) =>
        Array.isArray(value) &&
        value.length > 0 &&
        value.every(
          (model) =>
            typeof model === 'object' &&
            model !== null &&
            typeof (model as { stream?: unknown }).stream === 'function',
        ),
    ),
  ),
  shouldFallback: Rules.func,
  respectRetryAfter: Rules.boolean,
  scheduler: Rules.custom(
    'an RxJS scheduler (with a now() method)',
    (value) =>
      typeof value === 'object' &&
      value !== null &&
      typeof (value as { now?: unknown }).now === 'function',
  ),
};
