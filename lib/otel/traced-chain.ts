import { SpanKind, type Context } from '@opentelemetry/api';
import { defer, type Observable, type Subscriber } from 'rxjs';
import { ADVISE_INTO, type SubscribingAdvisor } from '../advisor-api/advisor-chain.js';
import type { Advisor, AdvisorChain } from '../advisor-api/advisor.js';
import type { ChatChunk } from '../core/chat-chunk.js';
import type { ChatModel } from '../core/chat-model.js';
import type { ChatRequest } from '../core/chat-request.js';
import type { CallTelemetry } from './call-telemetry.js';
import { RxAttributes } from './gen-ai-conventions.js';
import { observeStream } from './observe-stream.js';
import { TelemetrySpan } from './telemetry-span.js';
import { tracedModelCall } from './traced-model-call.js';

/**
 * The rest of a chain as the telemetry advisor hands it on: it runs the same advisors in
 * the same order as the chain it wraps (`advisor.advise(request, following)`, then the
 * model through the wrapped chain's own end, so a request's `chatModel` still counts), and
 * adds a `chat {model}` span around every model call and, when asked, a span around
 * every advisor. Spans take their parent explicitly, never from the active context: a
 * round that starts from a tool's callback must not nest under that tool.
 * @internal
 * @example
 * ```ts
 * new TracedChain(chain.advisors, index + 1, end, call, call.span.context).next(request);
 * ```
 */
export class TracedChain implements AdvisorChain {
  private nextLink: TracedChain | undefined;

  /**
   * @param advisors Every advisor of the wrapped chain, sorted.
   * @param index The advisor this link runs.
   * @param end The wrapped chain positioned after its last advisor (the model).
   * @param call The call's telemetry.
   * @param parent The context advisor spans of this link start under.
   */
  constructor(
    readonly advisors: readonly Advisor[],
    private readonly index: number,
    private readonly end: AdvisorChain,
    private readonly call: CallTelemetry,
    private readonly parent: Context,
  ) {}

  /** The model at the end of the wrapped chain. */
  get model(): ChatModel | undefined {
    return this.end.model;
  }

  next(request: ChatRequest): Observable<ChatChunk> {
    if (this.index >= this.advisors.length) {
      // The model call: its Observable is already cold (no `defer` per round).
      const model = request.chatModel ?? this.end.model;
      return tracedModelCall(this.call, request, model, this.parent, this.end);
    }
    return defer(() => {
      const advisor = this.advisors[this.index];
      if (!this.call.settings.advisorSpans) return advisor.advise(request, this.following());
      return this.tracedAdvisor(advisor, request);
    });
  }

  /**
   * `next(request).subscribe(subscriber)`, for a caller at subscribe time: an advisor with
   * `[ADVISE_INTO]` (the no-tools guard) gets `subscriber` itself, so a model call right
   * after it sees the call's subscriber (and its watcher can ride on it).
   * @param request The request for this link.
   * @param subscriber Receives the chunks.
   */
  runInto(request: ChatRequest, subscriber: Subscriber<ChatChunk>): void {
    const advisor = this.advisors[this.index] as Partial<SubscribingAdvisor> | undefined;
    const adviseInto = advisor?.[ADVISE_INTO];
    if (adviseInto === undefined || this.call.settings.advisorSpans) {
      this.next(request).subscribe(subscriber);
      return;
    }
    adviseInto.call(advisor, request, this.following(), subscriber);
  }

  copy(after: Advisor): AdvisorChain {
    const position = this.advisors.indexOf(after);
    // Not an advisor of this chain: the wrapped chain throws its usual error.
    if (position === -1) return this.end.copy(after);
    return new TracedChain(this.advisors, position + 1, this.end, this.call, this.parent);
  }

  private following(): TracedChain {
    return (this.nextLink ??= new TracedChain(
      this.advisors,
      this.index + 1,
      this.end,
      this.call,
      this.parent,
    ));
  }

  /** One advisor's work for one request, as a span; the advisors after it nest under it. */
  private tracedAdvisor(advisor: Advisor, request: ChatRequest): Observable<ChatChunk> {
    const span = TelemetrySpan.start(
      this.call.settings.tracer,
      `advisor ${advisor.name}`,
      {
        kind: SpanKind.INTERNAL,
        attributes: {
          [RxAttributes.ADVISOR_NAME]: advisor.name,
          [RxAttributes.ADVISOR_ORDER]: advisor.order,
          [RxAttributes.MODEL_CALL]: this.call.modelCalls + 1,
        },
      },
      this.parent,
    );
    const following = new TracedChain(
      this.advisors,
      this.index + 1,
      this.end,
      this.call,
      span.context,
    );
    return observeStream(
      defer(() => advisor.advise(request, following)),
      span.context,
      () => ({
        next: () => undefined,
        complete: () => span.end(),
        error: (error: unknown) => span.fail(error),
        cancel: () => span.cancel(),
      }),
    );
  }
}
