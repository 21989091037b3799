import type { Observable, OperatorFunction } from 'rxjs';
import type { ChatChunk } from '../core/chat-chunk.js';
import type { ChatModel } from '../core/chat-model.js';
import type { ChatRequest } from '../core/chat-request.js';
import { Order } from './order.js';
import { validateAdvisorIdentity } from './validate-advisor-identity.js';

/**
 * The rest of a chain, as seen by one advisor.
 *
 * @example
 * ```ts
 * import type { Advisor, AdvisorChain } from 'rx-advisors/advisor-api';
 *
 * const twice: Advisor = {
 *   name: 'twice',
 *   order: 0,
 *   advise: (request, chain: AdvisorChain) => chain.next(request), // cold: may be called again
 * };
 * ```
 */
export interface AdvisorChain {
  /**
   * Runs every advisor after this point and finally the model.
   * @param request The request to pass on.
   * @returns A cold Observable; each subscription runs the downstream anew.
   */
  next(request: ChatRequest): Observable<ChatChunk>;
  /**
   * The sub-chain of the advisors ordered after `after`, ending with the same model.
   * @param after An advisor of this chain.
   * @returns A new chain starting right after `after`.
   */
  copy(after: Advisor): AdvisorChain;
  /** Every advisor of the chain, sorted by order (registration order breaks ties). */
  readonly advisors: readonly Advisor[];
  /** The model at the end of the chain, for observers (telemetry reads its `provider`). */
  readonly model?: ChatModel | undefined;
}

/**
 * An advisor: an Observable transformation around the rest of the chain.
 *
 * @example
 * ```ts
 * import { map } from 'rxjs';
 * import type { Advisor } from 'rx-advisors';
 *
 * const shout: Advisor = {
 *   name: 'shout',
 *   order: 0,
 *   advise: (request, chain) =>
 *     chain.next(request).pipe(map((c) => (c.type === 'text-delta' ? { ...c, text: c.text.toUpperCase() } : c))),
 * };
 * ```
 */
export interface Advisor {
  /** A unique, readable name (used in logs and errors). */
  readonly name: string;
  /** Lower runs first (outermost). See `Order`. */
  readonly order: number;
  /**
   * Handles one call: may change the request, call `chain.next` zero, one or many times,
   * and transform the chunks that come back.
   * @param request The request as the advisors before this one left it.
   * @param chain The rest of the chain.
   * @returns The chunks this advisor passes outward.
   */
  advise(request: ChatRequest, chain: AdvisorChain): Observable<ChatChunk>;
}

/** Options of {@link advisor}. */
export interface AdvisorOptions {
  /** A unique, readable name. */
  name: string;
  /** Position in the chain; defaults to `Order.DEFAULT` (0), inside the tool loop. */
  order?: number;
  /** Maps the request on the way in. */
  before?: (request: ChatRequest) => ChatRequest;
  /** Any RxJS operator over the chunks on the way out: `filter(...)`, `tap(...)`, `source => …`. */
  after?: OperatorFunction<ChatChunk, ChatChunk>;
}

/**
 * Builds a simple advisor from a request mapper and an RxJS operator. Composing advisors
 * is composing operators.
 *
 * ```
 * model:   --a--b--c--f|
 * after:   filter(c => c.type !== 'reasoning-delta')
 * result:  --a-----c--f|       (b was a reasoning-delta)
 * ```
 *
 * @example
 * ```ts
 * import { filter } from 'rxjs';
 * import { advisor } from 'rx-advisors';
 *
 * const noReasoning = advisor({
 *   name: 'no-reasoning',
 *   after: filter((chunk) => chunk.type !== 'reasoning-delta'),
 * });
 * ```
 * @param options Name, order, `before` and `after`.
 * @returns An advisor.
 */
export function advisor(options: AdvisorOptions): Advisor {
  const { name, order = Order.DEFAULT, before, after } = options;
  validateAdvisorIdentity({ name, order });
  return {
    name,
    order,
    advise(request: ChatRequest, chain: AdvisorChain): Observable<ChatChunk> {
      // The chain calls advise() inside its own defer, once per subscription, so a
      // throwing `before` or `after` becomes the stream's error, not a thrown exception.
      const chunks$ = chain.next(before === undefined ? request : before(request));
      return after === undefined ? chunks$ : after(chunks$);
    },
  };
}
