import type { Observable } from 'rxjs';
import type { ChatChunk } from '../core/chat-chunk.js';
import type { ChatRequest } from '../core/chat-request.js';
import { InvalidOptionsError } from '../errors/invalid-options-error.js';
import { ProviderError } from '../errors/provider-error.js';
import type { Advisor, AdvisorChain } from './advisor.js';
import { Order } from './order.js';
import { recursiveAdvisor, type RecursionState, type RecursionStep } from './recursive-advisor.js';

/**
 * How long to wait before each retry: exponential (`initialDelay * factor^(n-1)`, capped at
 * `maxDelay`) or a function of the failed attempt (from 1) and its error.
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
 * const options: RetryAdvisorOptions = { maxAttempts: 5, backoff: { initialDelay: 250, maxDelay: 4000 } };
 * new RetryAdvisor(options);
 * ```
 */
export interface RetryAdvisorOptions {
  /** Model calls in all, the first one included; default 3. */
  maxAttempts?: number;
  /** Default `{ initialDelay: 500, factor: 2, maxDelay: 10_000 }` (milliseconds, RxJS time). */
  backoff?: RetryBackoff;
  /** Also retry when the answer is empty (no text, no tool calls); default `true`. */
  retryOnEmpty?: boolean;
  /** Which errors to retry; default: a `ProviderError` whose `retryable` is true. */
  isRetryable?: (error: unknown) => boolean;
  /**
   * Default `Order.LOWEST_PRECEDENCE - 1000`: next to the model, inside the tool loop, so a
   * failed model call is retried alone (tools that already ran are not run again).
   */
  order?: number;
  /** Default `'retry'`. */
  name?: string;
}

/**
 * Runs the rest of the chain again when it fails with a retryable `ProviderError` (429,
 * 5xx, dropped connection) or answers with nothing, after a backoff in RxJS time (so
 * `TestScheduler` runs it in virtual time and unsubscribing cancels the wait). Usage is
 * summed over attempts; a `retry` chunk marks each new attempt. When attempts run out the
 * last error is re-thrown (an empty last answer is returned as is).
 *
 * @example
 * ```ts
 * import { ChatClient, RetryAdvisor } from 'rx-advisors';
 *
 * const client = ChatClient.builder(model)
 *   .defaultAdvisors(new RetryAdvisor({ maxAttempts: 4, backoff: { initialDelay: 1000 } }))
 *   .build();
 * ```
 */
export class RetryAdvisor implements Advisor {
  /** The default order: `Order.LOWEST_PRECEDENCE - 1000`. */
  static readonly DEFAULT_ORDER = Order.LOWEST_PRECEDENCE - 1000;
  readonly name: string;
  readonly order: number;
  private readonly delegate: Advisor;

  /** @param options Attempts, backoff, what to retry, order and name. */
  constructor(options: RetryAdvisorOptions = {}) {
    const {
      maxAttempts = 3,
      backoff = {},
      retryOnEmpty = true,
      isRetryable = isRetryableProviderError,
      order = RetryAdvisor.DEFAULT_ORDER,
      name = 'retry',
    } = options;
    if (!Number.isInteger(maxAttempts) || maxAttempts < 1) {
      throw new InvalidOptionsError({
        option: 'maxAttempts',
        value: maxAttempts,
        expected: 'an integer of at least 1',
      });
    }
    const delayOf = backoffFunction(backoff);
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
          return { request, delay: delayOf(attempt, error), reason: describe(error) };
        }
        if (!retryOnEmpty || response.text.trim() !== '' || response.message.toolCalls) {
          return undefined;
        }
        return { request, delay: delayOf(attempt, undefined), reason: 'empty answer' };
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

function isRetryableProviderError(error: unknown): boolean {
  return ProviderError.isInstance(error) && error.retryable;
}

function backoffFunction(backoff: RetryBackoff): (attempt: number, error: unknown) => number {
  if (typeof backoff === 'function') return backoff;
  const { initialDelay = 500, factor = 2, maxDelay = 10_000 } = backoff;
  for (const [option, value] of [
    ['backoff.initialDelay', initialDelay],
    ['backoff.factor', factor],
    ['backoff.maxDelay', maxDelay],
  ] as const) {
    if (typeof value !== 'number' || !(value >= 0)) {
      throw new InvalidOptionsError({ option, value, expected: 'a number of at least 0' });
    }
  }
  return (attempt) => Math.min(maxDelay, initialDelay * factor ** (attempt - 1));
}

function describe(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.length > 200 ? `${message.slice(0, 199)}…` : message;
}
