import type { Attributes } from '@opentelemetry/api';
import type { ChatChunk } from '../core/chat-chunk.js';
import type { Usage } from '../core/usage.js';
import { toAttributeValue } from './attribute-value.js';
import { CallTelemetry } from './call-telemetry.js';
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
 * @internal
 * @example
 * ```ts
 * observeStream(downstream$, call.span.context, () => watchCall(call));
 * ```
 * @param call The call's telemetry.
 * @returns The watcher of one subscription.
 */
export function watchCall(call: CallTelemetry): StreamWatcher<ChatChunk> {
  const { span, settings } = call;
  const { recordContent, maxAttributeLength } = settings;
  let usage: Usage | undefined;
  let finishReason: string | undefined;
  const outcome = (): Attributes => {
    const attributes: Attributes = { [RxAttributes.ROUNDS]: call.modelCalls };
    if (finishReason !== undefined) {
      attributes[GenAi.RESPONSE_FINISH_REASONS] = finishReasons(finishReason);
    }
    if (usage?.inputTokens !== undefined) attributes[GenAi.USAGE_INPUT_TOKENS] = usage.inputTokens;
    if (usage?.outputTokens !== undefined) {
      attributes[GenAi.USAGE_OUTPUT_TOKENS] = usage.outputTokens;
    }
    return attributes;
  };
  return {
    quietType: 'text-delta', // the per-chunk path: one type check
    next: (chunk) => {
      switch (chunk.type) {
        case 'usage':
          usage = chunk.usage;
          break;
        case 'finish':
          finishReason = chunk.reason;
          break;
        case 'retry': {
          const attributes: Attributes = {
            [RxAttributes.RETRY_ATTEMPT]: chunk.attempt,
            [RxAttributes.RETRY_ADVISOR]: chunk.advisor,
          };
          if (chunk.delay !== undefined) attributes[RxAttributes.RETRY_DELAY] = chunk.delay;
          const reason = recordContent
            ? toAttributeValue(chunk.reason, maxAttributeLength)
            : undefined;
          if (reason !== undefined) attributes[RxAttributes.RETRY_REASON] = reason;
          span.event(RxAttributes.EVENT_RETRY, attributes);
          break;
        }
        case 'guardrail-tripped': {
          // Names only: the chunk's message is for the user, the guardrail's reason stays out.
          const name = toAttributeValue(chunk.guardrail, maxAttributeLength) ?? '';
          span.event(RxAttributes.EVENT_GUARDRAIL_TRIPPED, {
            [RxAttributes.GUARDRAIL_NAME]: name,
            [RxAttributes.GUARDRAIL_STAGE]: chunk.stage,
            [RxAttributes.GUARDRAIL_WITHDRAW]: chunk.withdraw,
          });
          settings.metrics.guardrailTrip({
            ...call.metricAttributes,
            [RxAttributes.GUARDRAIL_NAME]: name,
            [RxAttributes.GUARDRAIL_STAGE]: chunk.stage,
          });
          break;
        }
        default:
          break;
      }
    },
    complete: () => {
      CallTelemetry.endNested(call.nestedCalls, undefined);
      span.end(outcome());
      settings.metrics.rounds(call.modelCalls, call.metricAttributes);
    },
    error: (error: unknown) => {
      CallTelemetry.endNested(call.nestedCalls, error);
      span.fail(error, outcome());
      settings.metrics.rounds(call.modelCalls, call.metricAttributes);
    },
    cancel: () => {
      CallTelemetry.endNested(call.nestedCalls, null);
      span.set(outcome());
      span.cancel();
    },
  };
}
