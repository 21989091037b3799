import type { Observable } from 'rxjs';
import type { ChatChunk } from '../core/chat-chunk.js';
import type { ChatRequest, RequestChatModel } from '../core/chat-request.js';

/**
 * One model call about to be made at the end of the advisor chain: the request as the
 * innermost advisor left it, and the model that answers it (the request's `chatModel`,
 * else the chain's).
 * @example
 * ```ts
 * import type { ModelCall } from 'rx-advisors/advisor-api';
 * const describe = ({ request, model }: ModelCall): string =>
 *   `${model.provider}: ${request.messages.length} messages`;
 * ```
 */
export interface ModelCall {
  /** The request the model is about to receive. */
  readonly request: ChatRequest;
  /** The model that answers it. */
  readonly model: RequestChatModel;
}

/**
 * Wraps every model call of a call (and, registered with `inherit`, of the calls nested in
 * it): the seam that durable runs (replay a recorded round instead of calling the model),
 * budgets (count tokens as they stream, cut a round off) and telemetry plug into.
 * `proceed(request)` makes the call (through the interceptors registered after this one);
 * an interceptor may call it with another request, observe or transform its chunks, or not
 * call it at all and answer from elsewhere. It runs once per subscription of the model
 * call, inside the chain's `defer`, so per-call state belongs in the interceptor's body.
 * Unsubscribing from what it returns must unsubscribe from `proceed`'s Observable (which
 * aborts the HTTP request): compose with RxJS operators and this holds.
 *
 * ```
 * proceed(request): --a--b--u--f|
 * interceptor:      --a--b--u--f|     (observing: the chunks unchanged)
 * ```
 *
 * Register one with `CallInterceptors.of(request.context).onModelCall(key, interceptor)`
 * from an advisor's `advise`.
 * @example
 * ```ts
 * import { tap } from 'rxjs';
 * import type { ModelCallInterceptor } from 'rx-advisors/advisor-api';
 *
 * let calls = 0;
 * const countCalls: ModelCallInterceptor = (call, proceed) => {
 *   calls++;
 *   return proceed(call.request).pipe(tap({ complete: () => console.log(`${calls} model calls`) }));
 * };
 * ```
 */
export type ModelCallInterceptor = (
  call: ModelCall,
  proceed: (request: ChatRequest) => Observable<ChatChunk>,
) => Observable<ChatChunk>;
