import type { Observable } from 'rxjs';
import type { Advisor, AdvisorChain } from '../advisor-api/advisor.js';
import { Order } from '../advisor-api/order.js';
import {
  recursiveAdvisor,
  type RecursionState,
  type RecursionStep,
} from '../advisor-api/recursive-advisor.js';
import type { ChatChunk } from '../core/chat-chunk.js';
import type { ChatRequest } from '../core/chat-request.js';
import { validateOptions, withDefaults } from '../core/validate-options.js';
import { InvalidOptionsError } from '../errors/invalid-options-error.js';
import { ProviderError } from '../errors/provider-error.js';
import {
  RETRY_ADVISOR_DEFAULTS,
  RETRY_ADVISOR_RULES,
  RETRY_BACKOFF_DEFAULTS,
  RETRY_BACKOFF_RULES,
  type RetryAdvisorOptions,
  type RetryBackoff,
} from './retry-advisor-options.js';
import { errorMessageOf } from '../errors/error-details.js';

export type { RetryAdvisorOptions, RetryBackoff } from './retry-advisor-options.js';

/** The options in effect, defaults applied. */
type ResolvedRetryOptions = typeof RETRY_ADVISOR_DEFAULTS & RetryAdvisorOptions;

/** Milliseconds to wait before the next attempt, or `undefined` to give up. */
type DelayPolicy = (attempt: number, error: unknown) => number | undefined;

/**
 * Runs the rest of the chain again when it fails with a retryable `ProviderError` (429,
 * 5xx, dropped connection) or answers with nothing, after a backoff in RxJS time (so
 * `TestScheduler` runs it in virtual time and unsubscribing cancels the wait). The backoff
 * is exponential with jitter; a provider's Retry-After (`ProviderError.retryAfter`) is
 * waited at least, unless it exceeds `maxDelay`, which ends the retries. Usage is summed
 * over attempts; a `retry` chunk marks each new attempt (sent before the wait). When
 * attempts run out the last error is re-thrown (an empty last answer is returned as is).
 *
 * With `backoff: { initialDelay: 10 }, jitter: 0` and a 429 whose `retryAfter` is 30:
 *
 * ```
 * attempt 1:  -a#                  #: ProviderError, retryAfter 30
 * attempt 2:  32ms -b-f|           subscribed 30 ms after the error
 * result:     -ar 29ms -b--(muf|)  r: retry, m: metadata, u: usage, f: finish
 * ```
 *
 * @example
 * ```ts
 * import { ChatClient, RetryAdvisor } from 'rx-advisors';
 *
 * const client = ChatClient.builder(model)
 *   .defaultAdvisors(
 *     new RetryAdvisor({ maxAttempts: 4, backoff: { initialDelay: 1000 }, maxDelay: 30_000 }),
 *   )
 *   .build();
 * ```
 */
export class RetryAdvisor implements Advisor {
  /** @deprecated Use `Order.RETRY`, the one name of this default; removed in the next release. */
  static readonly DEFAULT_ORDER = Order.RETRY;
  readonly name: string;
  readonly order: number;
  private readonly delegate: Advisor;

  /** @param options Attempts, backoff, jitter, Retry-After handling, what to retry, order and name. */
  constructor(options: RetryAdvisorOptions = {}) {
    const resolved = withDefaults(
      RETRY_ADVISOR_DEFAULTS,
      validateOptions(options, RETRY_ADVISOR_RULES),
    );
    const { maxAttempts, retryOnEmpty, isRetryable, order, name } = resolved;
    const delayOf = delayPolicy(resolved);
    this.name = name;
    this.order = order;
    this.delegate = recursiveAdvisor({
      name,
      order,
      next: (state: RecursionState): RecursionStep | undefined => {
        const { attempt, request, response, error } = state;
        if (attempt >= maxAttempts) return undefined;
        if (response === undefined) {
          if (!isRetryable(error)) return undefined;
          const delay = delayOf(attempt, error);
          return delay === undefined ? undefined : { request, delay, reason: describe(error) };
        }
        if (!retryOnEmpty || response.text.trim() !== '' || response.message.toolCalls) {
          return undefined;
        }
        const delay = delayOf(attempt, undefined);
        return delay === undefined ? undefined : { request, delay, reason: 'empty answer' };
      },
    });
  }

  /**
   * Runs the chain, retrying failed or empty attempts.
   * @param request The request.
   * @param chain The rest of the chain.
   * @returns The attempts' chunks, `retry` chunks between them, then metadata, usage, finish.
   */
  advise(request: ChatRequest, chain: AdvisorChain): Observable<ChatChunk> {
    return this.delegate.advise(request, chain);
  }
}

/**
 * The wait before a retry: the backoff (exponential and jittered, or the caller's function),
 * raised to the error's Retry-After, cut to `maxDelay`; a Retry-After above `maxDelay` gives up,
 * because retrying before the provider's time only spends another request on a certain 429.
 */
function delayPolicy(options: ResolvedRetryOptions): DelayPolicy {
  const { backoff, jitter, random, maxDelay, respectRetryAfter } = options;
  const backoffOf = backoffFunction(backoff, jitter, random);
  return (attempt, error) => {
    const retryAfter =
      respectRetryAfter && ProviderError.isInstance(error) ? error.retryAfter : undefined;
    if (retryAfter !== undefined && retryAfter > maxDelay) return undefined;
    const delay = backoffOf(attempt, error);
    if (typeof delay !== 'number' || !(delay >= 0)) {
      throw new InvalidOptionsError({
        option: 'backoff',
        value: delay,
        expected: 'a backoff function that returns a number of milliseconds of at least 0',
      });
    }
    // Whole milliseconds, rounded up so a Retry-After is never cut short.
    return Math.ceil(Math.min(maxDelay, Math.max(delay, retryAfter ?? 0)));
  };
}

function backoffFunction(
  backoff: RetryBackoff,
  jitter: number,
  random: () => number,
): (attempt: number, error: unknown) => number {
  if (typeof backoff === 'function') return backoff;
  const { initialDelay, factor, maxDelay } = withDefaults(
    RETRY_BACKOFF_DEFAULTS,
    validateOptions(backoff, RETRY_BACKOFF_RULES, 'backoff.'),
  );
  return (attempt) => {
    const delay = Math.min(maxDelay, initialDelay * factor ** (attempt - 1));
    if (jitter === 0) return delay;
    const r = random();
    if (typeof r !== 'number' || !(r >= 0 && r <= 1)) {
      throw new InvalidOptionsError({
        option: 'random',
        value: r,
        expected: 'a number in [0, 1] from random()',
      });
    }
    return delay * (1 - jitter * r);
  };
}

function describe(error: unknown): string {
  const message = errorMessageOf(error);
  return message.length > 200 ? `${message.slice(0, 199)}…` : message;
}
