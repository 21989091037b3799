import { type Observable, type OperatorFunction } from 'rxjs';
import type { ChatChunk } from '../core/chat-chunk.js';
import type { ChatRequest } from '../core/chat-request.js';
import { validateAdvisorIdentity } from './validate-advisor-identity.js';
import type { Advisor, AdvisorChain } from './advisor.js';
import { Order } from './order.js';

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
