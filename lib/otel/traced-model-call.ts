import { SpanKind, type Attributes, type Context } from '@opentelemetry/api';
import { defer, type Observable } from 'rxjs';
import { redact } from '../core/redact.js';
import type { ChatChunk, FinishReason } from '../core/chat-chunk.js';
import type { ChatRequest, RequestChatModel } from '../core/chat-request.js';
import type { ToolCall } from '../core/message.js';
import type { Usage } from '../core/usage.js';
import { toAttributeValue } from './attribute-value.js';
import type { CallTelemetry } from './call-telemetry.js';
import { GenAi, RxAttributes } from './gen-ai-conventions.js';
import { observeStream } from './observe-stream.js';
import { errorType, TelemetrySpan } from './telemetry-span.js';

/** How deep recorded content is copied before it is summarized (as LoggerAdvisor). */
export const REDACTION_DEPTH = 32;

/**
 * One model call as a `chat {model}` span (a child of the call span) with the GenAI
 * request, response and usage attributes, and its metrics. Per chunk it does only what
 * the chunks already carry: the first chunk's time, and the `usage`, `metadata` and
 * `finish` chunks' fields (plus the text and tool calls when content is recorded). The
 * span ends once: on completion, on error (status ERROR, `error.type`) or on unsubscribe
 * (`rx_advisors.cancelled`).
 * @internal
 * @example
 * ```ts
 * tracedModelCall(call, request, chain.model, call.span.context, chain.next(request)).subscribe();
 * ```
 * @param call The call's telemetry.
 * @param request The model call's request.
 * @param chatModel The model the call runs on, when known: its provider, and its default
 *   model name when the request names none (`gen_ai.request.model` whenever it is known).
 * @param parent The context the span starts under (the call's, or an advisor's span).
 * @param model$ The model call.
 * @returns The model call's chunks, unchanged.
 */
export function tracedModelCall(
  call: CallTelemetry,
  request: ChatRequest,
  chatModel: RequestChatModel | undefined,
  parent: Context,
  model$: Observable<ChatChunk>,
): Observable<ChatChunk> {
  return defer(() => {
    const { settings } = call;
    const number = ++call.modelCalls;
    const requested = request.options.model ?? chatModel?.defaultModel;
    const span = TelemetrySpan.start(
      settings.tracer,
      requested === undefined ? GenAi.OPERATION_CHAT : `${GenAi.OPERATION_CHAT} ${requested}`,
      {
        kind: SpanKind.CLIENT,
        attributes: requestAttributes(request, chatModel?.provider, requested, number),
      },
      parent,
    );
    call.latestModelCall = span;
    if (settings.recordContent) recordInput(span, request, settings.maxAttributeLength);
    const started = performance.now();
    let firstChunk: number | undefined;
    let usage: Usage | undefined;
    let id: string | undefined;
    let model: string | undefined;
    let finishReason: FinishReason | undefined;
    const text: string[] | undefined = settings.recordContent ? [] : undefined;
    const toolCalls: ToolCall[] | undefined = settings.recordContent ? [] : undefined;
    const responseAttributes = (): Attributes => {
      const attributes: Attributes = {};
      if (firstChunk !== undefined) {
        attributes[GenAi.RESPONSE_TIME_TO_FIRST_CHUNK] = (firstChunk - started) / 1000;
      }
      if (id !== undefined) attributes[GenAi.RESPONSE_ID] = id;
      if (model !== undefined) attributes[GenAi.RESPONSE_MODEL] = model;
      if (finishReason !== undefined) {
        attributes[GenAi.RESPONSE_FINISH_REASONS] = [finishReason.replace(/-/g, '_')];
      }
      if (usage !== undefined) addUsage(attributes, usage);
      if (text !== undefined && toolCalls !== undefined) {
        const output = toAttributeValue(
          [{ role: 'assistant', content: text.join(''), toolCalls }],
          settings.maxAttributeLength,
        );
        if (output !== undefined) attributes[GenAi.OUTPUT_MESSAGES] = output;
      }
      return attributes;
    };
    const recordMetrics = (failure?: unknown): void => {
      const sets = call.modelMetricAttributes(requested, model);
      const seconds = (performance.now() - started) / 1000;
      settings.metrics.duration(
        seconds,
        failure === undefined
          ? sets.responded
          : { ...sets.responded, [GenAi.ERROR_TYPE]: errorType(failure) },
      );
      if (usage !== undefined) {
        settings.metrics.tokens(usage.inputTokens, usage.outputTokens, sets.input, sets.output);
        call.inputTokens += usage.inputTokens ?? 0;
        call.outputTokens += usage.outputTokens ?? 0;
      }
    };
    return observeStream(model$, span.context, () => ({
      // The per-chunk path: text deltas pass without a call, unless content is recorded.
      quietType: text === undefined ? 'text-delta' : undefined,
      next: (chunk) => {
        if (firstChunk === undefined) {
          firstChunk = performance.now();
          settings.metrics.firstChunk(
            (firstChunk - started) / 1000,
            call.modelMetricAttributes(requested, undefined).requested,
          );
        }
        switch (chunk.type) {
          case 'usage':
            usage = chunk.usage;
            break;
          case 'metadata':
            if (chunk.id !== undefined) id = chunk.id;
            if (chunk.model !== undefined) model = chunk.model;
            break;
          case 'finish':
            finishReason = chunk.reason;
            break;
          case 'text-delta':
            text?.push(chunk.text);
            break;
          case 'tool-call':
            toolCalls?.push({ id: chunk.id, name: chunk.name, arguments: chunk.arguments });
            break;
          default:
            break;
        }
      },
      complete: () => {
        span.end(responseAttributes());
        recordMetrics();
      },
      error: (error: unknown) => {
        span.fail(error, responseAttributes());
        recordMetrics(error);
      },
      cancel: () => {
        span.set(responseAttributes());
        span.cancel();
      },
    }));
  });
}

function requestAttributes(
  request: ChatRequest,
  provider: string | undefined,
  requested: string | undefined,
  number: number,
): Attributes {
  const { options } = request;
  const attributes: Attributes = {
    [GenAi.OPERATION_NAME]: GenAi.OPERATION_CHAT,
    [RxAttributes.MODEL_CALL]: number,
  };
  if (provider !== undefined) attributes[GenAi.PROVIDER_NAME] = provider;
  if (requested !== undefined) attributes[GenAi.REQUEST_MODEL] = requested;
  if (options.temperature !== undefined)
    attributes[GenAi.REQUEST_TEMPERATURE] = options.temperature;
  if (options.topP !== undefined) attributes[GenAi.REQUEST_TOP_P] = options.topP;
  if (options.maxTokens !== undefined) attributes[GenAi.REQUEST_MAX_TOKENS] = options.maxTokens;
  if (Array.isArray(options.stop) && options.stop.every((s) => typeof s === 'string')) {
    attributes[GenAi.REQUEST_STOP_SEQUENCES] = options.stop;
  }
  return attributes;
}

function recordInput(span: TelemetrySpan, request: ChatRequest, maxLength: number): void {
  const attributes: Attributes = {};
  const messages = toAttributeValue(redact(request.messages, REDACTION_DEPTH), maxLength);
  if (messages !== undefined) attributes[GenAi.INPUT_MESSAGES] = messages;
  const options = toAttributeValue(redact(request.options, REDACTION_DEPTH), maxLength);
  if (options !== undefined) attributes[RxAttributes.REQUEST_OPTIONS] = options;
  span.set(attributes);
}

function addUsage(attributes: Attributes, usage: Usage): void {
  const fields = [
    [GenAi.USAGE_INPUT_TOKENS, usage.inputTokens],
    [GenAi.USAGE_OUTPUT_TOKENS, usage.outputTokens],
    [GenAi.USAGE_CACHE_READ_INPUT_TOKENS, usage.cacheReadTokens],
    [GenAi.USAGE_CACHE_CREATION_INPUT_TOKENS, usage.cacheWriteTokens],
    [GenAi.USAGE_REASONING_OUTPUT_TOKENS, usage.reasoningTokens],
  ] as const;
  for (const [name, value] of fields) if (typeof value === 'number') attributes[name] = value;
}
