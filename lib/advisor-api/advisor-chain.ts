import { defer, type Observable, type Subscriber } from 'rxjs';
import type { ChatChunk } from '../core/chat-chunk.js';
import type { ChatModel } from '../core/chat-model.js';
import type { ChatRequest } from '../core/chat-request.js';
import { InvalidOptionsError } from '../errors/invalid-options-error.js';
import type { Advisor, AdvisorChain } from './advisor.js';
import { CallInterceptors } from './call-interceptors.js';
import { noteChainHead } from './loop-answer.js';

/** Options of {@link createAdvisorChain}. */
export interface CreateAdvisorChainOptions {
  /** The advisors, in registration order; they are sorted by `order`, ties keep this order. */
  advisors: readonly Advisor[];
  /** The model at the end of the chain. */
  model: ChatModel;
}

/**
 * Builds an immutable chain over `advisors` (stable-sorted by order) ending with `model`.
 * The model is always last: no order puts an advisor behind it.
 *
 * @example
 * ```ts
 * import { ChatRequest, LoggerAdvisor } from 'rx-advisors';
 * import { createAdvisorChain } from 'rx-advisors/advisor-api';
 *
 * const chain = createAdvisorChain({ advisors: [new LoggerAdvisor()], model });
 * chain.next(ChatRequest.create({ messages: [{ role: 'user', content: 'Hi' }] })).subscribe();
 * ```
 * @param options The advisors and the model.
 * @returns The chain at its first advisor.
 */
export function createAdvisorChain(options: CreateAdvisorChainOptions): AdvisorChain {
  const { advisors, model } = options;
  for (const advisor of advisors) validateAdvisor(advisor);
  return new ChainLink(sortAdvisors(advisors), 0, model);
}

/**
 * Sorts advisors by `order`; equal orders keep their registration order.
 * @param advisors Advisors in registration order.
 * @returns A new, sorted array.
 * @example
 * ```ts partial
 * import { sortAdvisors } from 'rx-advisors/advisor-api';
 * sortAdvisors([b, a]).map((x) => x.name);
 * ```
 */
export function sortAdvisors(advisors: readonly Advisor[]): readonly Advisor[] {
  // Array.prototype.sort is stable since ES2019.
  return [...advisors].sort((a, b) => a.order - b.order);
}

class ChainLink implements AdvisorChain {
  private nextLink: ChainLink | undefined;

  constructor(
    readonly advisors: readonly Advisor[],
    private readonly index: number,
    readonly model: ChatModel,
  ) {}

  next(request: ChatRequest): Observable<ChatChunk> {
    // Cold: the advisor (or the model) runs once per subscription, inside it.
    return defer(() => this.run(request));
  }

  /** `next(request)` subscribed with `subscriber`, now (see {@link subscribeNow}). */
  runInto(request: ChatRequest, subscriber: Subscriber<ChatChunk>): void {
    const advisor = this.advisors[this.index] as Partial<SubscribingAdvisor> | undefined;
    if (this.index === 0) noteChainHead(request, advisor as Advisor | undefined);
    const adviseInto = advisor?.[ADVISE_INTO];
    if (adviseInto !== undefined) adviseInto.call(advisor, request, this.following(), subscriber);
    else this.run(request).subscribe(subscriber);
  }

  /** What `next(request)` subscribes to, made now: for callers already subscribing. */
  run(request: ChatRequest): Observable<ChatChunk> {
    const advisor = this.advisors[this.index];
    // A nested agent's call records its head: whether its loop may give the answer.
    if (this.index === 0) noteChainHead(request, advisor);
    if (advisor === undefined) return this.callModel(request);
    return advisor.advise(request, this.following());
  }

  copy(after: Advisor): AdvisorChain {
    const position = this.advisors.indexOf(after);
    if (position === -1) {
      throw new InvalidOptionsError({
        option: 'after',
        value: after.name,
        expected: `an advisor of this chain (${this.advisors.map((a) => a.name).join(', ') || 'none'})`,
      });
    }
    return new ChainLink(this.advisors, position + 1, this.model);
  }

  /**
   * The model call at the end of the chain, through the call's model-call interceptors
   * when it has any (one context lookup otherwise, none when the context is empty). A request may name the model that
   * answers it (FallbackAdvisor does, per attempt).
   */
  private callModel(request: ChatRequest): Observable<ChatChunk> {
    const model = request.chatModel ?? this.model;
    // Interceptors live in the context: an empty one (a plain call's) has none to look up.
    if (request.context.size === 0) return model.stream(request);
    const intercept = CallInterceptors.modelCallInterceptor(request.context);
    if (intercept === undefined) return model.stream(request);
    return intercept({ request, model }, this.stream);
  }

  private readonly stream = (request: ChatRequest): Observable<ChatChunk> =>
    (request.chatModel ?? this.model).stream(request);

  private following(): ChainLink {
    // Links are created once per chain and reused by every round of a recursive advisor.
    return (this.nextLink ??= new ChainLink(this.advisors, this.index + 1, this.model));
  }
}

/**
 * What `chain.next(request)` would give a subscriber, made at once: the next advisor's
 * `advise` (or the model call) runs now, in the caller's stack. Only for a caller that runs
 * at subscribe time itself (the call's own subscription, an advisor's `new Observable`),
 * where `next`'s `defer` would be a second, empty layer of the same laziness: one
 * Observable and one subscription fewer per link. A chain that is not this module's (a
 * test's stub) is subscribed through its `next`.
 * @internal
 * @example
 * ```ts
 * new Observable<ChatChunk>((subscriber) => nextNow(chain, request).subscribe(subscriber));
 * ```
 * @param chain The chain at the link to run.
 * @param request The request for that link.
 * @returns The link's Observable (cold or not, as its advisor made it).
 */
export function nextNow(chain: AdvisorChain, request: ChatRequest): Observable<ChatChunk> {
  return chain instanceof ChainLink ? chain.run(request) : chain.next(request);
}

/**
 * `chain.next(request).subscribe(subscriber)` for a caller that runs at subscribe time
 * itself: as {@link nextNow}, and an advisor of the library that can subscribe its chain
 * directly ({@link ADVISE_INTO}: the no-tools guard) does so, with no Observable of its own.
 * @internal
 * @example
 * ```ts
 * new Observable<string>((subscriber) => subscribeNow(chain, request, new TextOnly(subscriber)));
 * ```
 * @param chain The chain at the link to run.
 * @param request The request for that link.
 * @param subscriber Receives the link's chunks.
 */
export function subscribeNow(
  chain: AdvisorChain,
  request: ChatRequest,
  subscriber: Subscriber<ChatChunk>,
): void {
  if (chain instanceof ChainLink) chain.runInto(request, subscriber);
  else chain.next(request).subscribe(subscriber);
}

/**
 * The key of the optional method with which an advisor of this library subscribes its
 * chain itself when it is called at subscribe time: `[ADVISE_INTO](request, chain,
 * subscriber)` does what `advise(request, chain).subscribe(subscriber)` would, minus the
 * Observable, its closure and its subscription. `advise` stays the advisor's contract.
 * @internal
 */
export const ADVISE_INTO: unique symbol = Symbol('rx-advisors.adviseInto');

/**
 * An advisor with the {@link ADVISE_INTO} shortcut.
 * @internal
 */
export interface SubscribingAdvisor extends Advisor {
  [ADVISE_INTO](request: ChatRequest, chain: AdvisorChain, subscriber: Subscriber<ChatChunk>): void;
}

function validateAdvisor(advisor: Advisor): void {
  if (typeof advisor?.advise !== 'function') {
    throw new InvalidOptionsError({
      option: 'advisors',
      value: advisor,
      expected: 'objects with an advise() method',
    });
  }
  if (typeof advisor.order !== 'number' || Number.isNaN(advisor.order)) {
    throw new InvalidOptionsError({
      option: `${advisor.name}.order`,
      value: advisor.order,
      expected: 'a number (see Order; lower runs first)',
    });
  }
}
