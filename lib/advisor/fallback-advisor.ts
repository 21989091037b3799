import type { Observable, SchedulerLike } from 'rxjs';
import type { Advisor, AdvisorChain } from '../advisor-api/advisor.js';
import { Order } from '../advisor-api/order.js';
import {
  recursiveAdvisor,
  type RecursionState,
  type RecursionStep,
} from '../advisor-api/recursive-advisor.js';
import type { ChatChunk } from '../core/chat-chunk.js';
import type { ChatModel } from '../core/chat-model.js';
import type { ChatRequest } from '../core/chat-request.js';
import { validateOptions, withDefaults } from '../core/validate-options.js';
import { ProviderError } from '../errors/provider-error.js';
import {
  FALLBACK_ADVISOR_DEFAULTS,
  FALLBACK_ADVISOR_RULES,
  type FallbackAdvisorOptions,
} from './fallback-advisor-options.js';
import { errorMessageOf } from '../errors/error-details.js';

export type { FallbackAdvisorOptions } from './fallback-advisor-options.js';

/**
 * Answers with the next model of a list when a model fails: the request names the model
 * that answers it (`ChatRequest.withChatModel`), so the advisors after this one run again
 * for the next model and the end of the chain streams it. A failure falls back when it is
 * a retryable `ProviderError` (or `shouldFallback` says so); any other failure, or the
 * last model's, is the call's error. A model that failed with a Retry-After is skipped,
 * by every call through this advisor, until that time has passed (RxJS time). Like
 * `RetryAdvisor`, a `retry` chunk marks each new attempt (so a UI drops the partial text),
 * usage is summed over attempts (the failed ones' too), and the stream ends with one
 * `metadata`, one `usage` and one `finish`.
 * ```
 * model A:    -a-x#               x: usage, #: ProviderError (retryable)
 * model B:        -b-c-(yf|)      subscribed when A fails; y: usage
 * result:     -a--rb-c-(mtf|)     r: retry, m: metadata, t: usage of both, f: finish
 * ```
 * @example
 * ```ts
 * import { ChatClient, FallbackAdvisor, RetryAdvisor } from 'rx-advisors';
 * import { MockChatModel } from 'rx-advisors/testing';
 *
 * const backup = MockChatModel.script([{ text: 'From the backup.' }]);
 * const client = ChatClient.builder(model)
 *   .defaultAdvisors(new FallbackAdvisor({ models: [model, backup] }), new RetryAdvisor())
 *   .build();
 * ```
 */
export class FallbackAdvisor implements Advisor {
  /** @deprecated Use `Order.FALLBACK`, the one name of this default; removed in the next release. */
  static readonly DEFAULT_ORDER = Order.FALLBACK;
  readonly name: string;
  readonly order: number;
  private readonly delegate: Advisor;
  private readonly models: readonly ChatModel[];
  /** When each model may answer again (scheduler time), by position in `models`. */
  private readonly availableAt: number[];
  private readonly scheduler: SchedulerLike;

  /** @param options The models, which failures fall back, Retry-After handling, order and name. */
  constructor(options: FallbackAdvisorOptions) {
    const resolved = withDefaults(
      FALLBACK_ADVISOR_DEFAULTS,
      validateOptions(options, FALLBACK_ADVISOR_RULES),
    );
    const { shouldFallback, respectRetryAfter, scheduler, order, name } = resolved;
    this.name = name;
    this.order = order;
    this.models = [...resolved.models];
    this.availableAt = this.models.map(() => -Infinity);
    this.scheduler = scheduler;
    this.delegate = recursiveAdvisor({
      name,
      order,
      // Per subscription: the first model not waiting out a Retry-After answers first.
      before: (request) => request.withChatModel(this.models[this.firstAvailable()]),
      next: ({ request, originalRequest, response, error }: RecursionState) => {
        if (response !== undefined) return undefined;
        const failed = this.models.indexOf(request.chatModel as ChatModel);
        const model = this.models[failed];
        if (model === undefined) return undefined;
        if (!shouldFallback(error, model)) return undefined;
        if (respectRetryAfter && ProviderError.isInstance(error) && error.retryAfter) {
          this.availableAt[failed] = this.scheduler.now() + error.retryAfter;
        }
        const next = this.nextAvailable(failed);
        if (next === undefined) return undefined;
        const step: RecursionStep = {
          request: originalRequest.withChatModel(this.models[next]),
          reason: `${model.provider} failed (${describe(error)}); ${this.models[next].provider} answers`,
        };
        return step;
      },
    });
  }

  /**
   * Runs the chain with the first available model, falling back on failures.
   * @param request The request.
   * @param chain The rest of the chain.
   * @returns The attempts' chunks, `retry` chunks between them, then metadata, usage, finish.
   */
  advise(request: ChatRequest, chain: AdvisorChain): Observable<ChatChunk> {
    return this.delegate.advise(request, chain);
  }

  /** The first model not waiting; when all wait, the one whose wait ends first. */
  private firstAvailable(): number {
    const now = this.scheduler.now();
    let soonest = 0;
    for (let index = 0; index < this.models.length; index++) {
      if (this.availableAt[index] <= now) return index;
      if (this.availableAt[index] < this.availableAt[soonest]) soonest = index;
    }
    return soonest;
  }

  /** The next model after `failed` that is not waiting, if any. */
  private nextAvailable(failed: number): number | undefined {
    const now = this.scheduler.now();
    for (let index = failed + 1; index < this.models.length; index++) {
      if (this.availableAt[index] <= now) return index;
    }
    return undefined;
  }
}

function describe(error: unknown): string {
  const message = errorMessageOf(error);
  return message.length > 200 ? `${message.slice(0, 199)}…` : message;
}
