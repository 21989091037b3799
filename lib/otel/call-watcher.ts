import type { Attributes } from '@opentelemetry/api';
import type { Subscriber } from 'rxjs';
import { watchChunks, type ChunkWatcher } from '../advisor-api/chunk-watch.js';
import type { ChatChunk } from '../core/chat-chunk.js';
import type { Usage } from '../core/usage.js';
import { toAttributeValue } from './attribute-value.js';
import { CallTelemetry, type CallRider } from './call-telemetry.js';
import { GenAi, RxAttributes } from './gen-ai-conventions.js';
import type { StreamWatcher } from './observe-stream.js';
import { finishReasons } from './traced-model-call.js';

/**
 * What the telemetry advisor watches of a call's outbound stream: usage and finish reason
 * (set on the call span at its end), `retry` chunks and `guardrail-tripped` chunks (span
 * events; a trip also counts in `rx_advisors.guardrail.trips`), and how the stream ends
 * (the call span ends, the rounds are recorded, the `invoke_agent` spans of nested calls
 * traced without an advisor of their own and not under a tool end with it). Text deltas
 * pass without a call (`quietType`); every other chunk costs one `switch`.
 *
 * It is either the watcher of its own subscriber layer (`observeStream`) or rides on the
 * call's subscriber ({@link CallWatcher.rideOn}: `stream().content()`'s, whose type check
 * tells it the chunks it needs, no layer at all); then a model call subscribed by that same
 * subscriber (nothing in between that sees the chunks: the no-tools guard hands its check to
 * it too) rides with it ({@link CallWatcher.ride}) instead of adding its own layer. One
 * object per call; it is also the carrier's teardown (an unsubscribe before the end is a
 * cancel).
 * @internal
 * @example
 * ```ts
 * observeStream(downstream$, call.span.context, () => new CallWatcher(call));
 * ```
 */
export class CallWatcher implements StreamWatcher<ChatChunk>, ChunkWatcher, CallRider {
  readonly quietType = 'text-delta';
  /** The subscriber it rides on, when it does. */
  private carrier: Subscriber<ChatChunk> | undefined;
  /** The model call riding with it. */
  private model: StreamWatcher<ChatChunk> | undefined;
  private usage: Usage | undefined;
  private finishReason: string | undefined;
  private ended = false;

  /** @param call The call's telemetry. */
  constructor(private readonly call: CallTelemetry) {}

  /**
   * Rides on `subscriber` when it can carry a watcher (its `WATCH_CHUNKS` slot).
   * @param subscriber The call's subscriber.
   * @returns Whether it does; then `subscriber.add(watcher)` once the chain is subscribed.
   */
  rideOn(subscriber: Subscriber<ChatChunk>): boolean {
    if (!watchChunks(subscriber, this)) return false;
    this.carrier = subscriber;
    this.call.rider = this;
    return true;
  }

  /**
   * Takes a model call's watcher along when the model call is subscribed by the carrier
   * itself (its chunks are the call's, and it ends with the call), and it needs only the
   * first chunk and the chunks that are not text deltas.
   * @param model The model call's watcher.
   * @param subscriber The model call's subscriber.
   * @returns Whether it rides (then the model call is subscribed with `subscriber` as it is).
   */
  ride(model: StreamWatcher<ChatChunk>, subscriber: Subscriber<ChatChunk>): boolean {
    if (subscriber !== this.carrier || this.model !== undefined || this.ended) return false;
    if (model.quietType !== this.quietType) return false;
    // Re-armed: the model call's first chunk is told, whatever its type.
    if (!watchChunks(subscriber, this)) return false;
    this.model = model;
    return true;
  }

  next(chunk: ChatChunk): void {
    this.model?.next(chunk);
    const { call } = this;
    switch (chunk.type) {
      case 'usage':
        this.usage = chunk.usage;
        break;
      case 'finish':
        this.finishReason = chunk.reason;
        break;
      case 'retry': {
        const { recordContent, maxAttributeLength } = call.settings;
        const attributes: Attributes = {
          [RxAttributes.RETRY_ATTEMPT]: chunk.attempt,
          [RxAttributes.RETRY_ADVISOR]: chunk.advisor,
        };
        if (chunk.delay !== undefined) attributes[RxAttributes.RETRY_DELAY] = chunk.delay;
        const reason = recordContent
          ? toAttributeValue(chunk.reason, maxAttributeLength)
          : undefined;
        if (reason !== undefined) attributes[RxAttributes.RETRY_REASON] = reason;
        call.span.event(RxAttributes.EVENT_RETRY, attributes);
        break;
      }
      case 'guardrail-tripped': {
        // Names only: the chunk's message is for the user, the guardrail's reason stays out.
        const name = toAttributeValue(chunk.guardrail, call.settings.maxAttributeLength) ?? '';
        call.span.event(RxAttributes.EVENT_GUARDRAIL_TRIPPED, {
          [RxAttributes.GUARDRAIL_NAME]: name,
          [RxAttributes.GUARDRAIL_STAGE]: chunk.stage,
          [RxAttributes.GUARDRAIL_WITHDRAW]: chunk.withdraw,
        });
        call.settings.metrics.guardrailTrip({
          ...call.metricAttributes,
          [RxAttributes.GUARDRAIL_NAME]: name,
          [RxAttributes.GUARDRAIL_STAGE]: chunk.stage,
        });
        break;
      }
      default:
        break;
    }
  }

  complete(): void {
    this.ended = true;
    this.model?.complete();
    const { call } = this;
    CallTelemetry.endNested(call.nestedCalls, undefined);
    call.span.end(this.outcome());
    call.settings.metrics.rounds(call.modelCalls, call.metricAttributes);
  }

  error(error: unknown): void {
    this.ended = true;
    this.model?.error(error);
    const { call } = this;
    CallTelemetry.endNested(call.nestedCalls, error);
    call.span.fail(error, this.outcome());
    call.settings.metrics.rounds(call.modelCalls, call.metricAttributes);
  }

  cancel(): void {
    this.ended = true;
    this.model?.cancel();
    const { call } = this;
    CallTelemetry.endNested(call.nestedCalls, null);
    call.span.set(this.outcome());
    call.span.cancel();
  }

  /** As the carrier's teardown: an unsubscribe before the stream ended is a cancel. */
  unsubscribe(): void {
    if (!this.ended) this.cancel();
  }

  private outcome(): Attributes {
    const { usage, finishReason } = this;
    const attributes: Attributes = { [RxAttributes.ROUNDS]: this.call.modelCalls };
    if (finishReason !== undefined) {
      attributes[GenAi.RESPONSE_FINISH_REASONS] = finishReasons(finishReason);
    }
    if (usage?.inputTokens !== undefined) attributes[GenAi.USAGE_INPUT_TOKENS] = usage.inputTokens;
    if (usage?.outputTokens !== undefined) {
      attributes[GenAi.USAGE_OUTPUT_TOKENS] = usage.outputTokens;
    }
    return attributes;
  }
}
