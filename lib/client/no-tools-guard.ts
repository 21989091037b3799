import { Observable, Subscriber } from 'rxjs';
import { ADVISE_INTO, nextNow, type SubscribingAdvisor } from '../advisor-api/advisor-chain.js';
import type { Advisor, AdvisorChain } from '../advisor-api/advisor.js';
import { Order } from '../advisor-api/order.js';
import type { ChatChunk } from '../core/chat-chunk.js';
import type { ChatRequest } from '../core/chat-request.js';
import { noToolsError } from './no-tools-error.js';
import { TextDeltaSubscriber } from './text-delta-subscriber.js';

/**
 * The advisor a ChatClient call gets when it offers no tools and no tool loop: a model that
 * calls a tool anyway (a prompt that mentions one, a provider-side default) ends the call
 * with a `ToolNotFoundError` at its first complete tool call, instead of an answer with
 * empty text and finish reason `tool-calls`. A call that handles tool calls itself sets
 * `advisorParams({ toolCallingAdvisorAutoRegister: false })` and gets no guard. One
 * `type` check per chunk; it never changes a chunk.
 * @internal
 * @example
 * ```ts
 * const advisors = [...registered, noToolsGuard()];
 * ```
 * @returns The guard advisor (one shared instance), ordered where the tool loop would be.
 */
export function noToolsGuard(): Advisor {
  return GUARD;
}

// One guard for every call: it holds no state outside a subscription. It is every plain
// call's one advisor, so it is written for the first chunk: its Observable makes the next
// link's call at its own subscription (no `defer` of `chain.next` inside it) and checks the
// chunks in one `Subscriber` (no `map`: no operator subscriber and no closures per call).
// When the call itself subscribes it (`content()`), it skips even its own Observable, and
// hands its check to `content()`'s subscriber when that is the one it would pass chunks to.
const GUARD: SubscribingAdvisor = {
  name: 'NoToolsGuard',
  order: Order.TOOL_CALLING,
  advise(request: ChatRequest, chain: AdvisorChain): Observable<ChatChunk> {
    return new Observable<ChatChunk>((subscriber) => {
      guardInto(request, chain, subscriber);
    });
  },
  [ADVISE_INTO](request, chain, subscriber) {
    // Only here, as the call's first advisor: `content()`'s subscriber then gets exactly
    // the chunks this guard would pass on, and nothing else.
    if (!(subscriber instanceof TextDeltaSubscriber)) return guardInto(request, chain, subscriber);
    subscriber.refuseToolCalls();
    nextNow(chain, request).subscribe(subscriber);
  },
};

function guardInto(
  request: ChatRequest,
  chain: AdvisorChain,
  subscriber: Subscriber<ChatChunk>,
): void {
  nextNow(chain, request).subscribe(new NoToolsSubscriber(subscriber));
}

/** Passes every chunk on, and fails the call at a complete tool call. */
class NoToolsSubscriber extends Subscriber<ChatChunk> {
  protected override _next(chunk: ChatChunk): void {
    if (chunk.type !== 'tool-call') {
      this.destination.next(chunk);
      return;
    }
    // As `map`'s throw did: the call fails downstream, then the model call is left (its
    // request aborted).
    this.error(noToolsError(chunk));
  }
}
