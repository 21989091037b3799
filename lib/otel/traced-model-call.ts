import {
  context as otelContext,
  SpanKind,
  type Attributes,
  type Context,
} from '@opentelemetry/api';
import { Observable, type Subscriber } from 'rxjs';
import { nextNow } from '../advisor-api/advisor-chain.js';
import type { AdvisorChain } from '../advisor-api/advisor.js';
import { redact } from '../core/redact.js';
import type { ChatChunk, FinishReason } from '../core/chat-chunk.js';
import type { ChatRequest, RequestChatModel } from '../core/chat-request.js';
import type { ToolCall } from '../core/message.js';
import type { Usage } from '../core/usage.js';
import { toAttributeValue } from './attribute-value.js';
import type { CallTelemetry } from './call-telemetry.js';
import { GenAi, RxAttributes } from './gen-ai-conventions.js';
import { watchInto, type StreamWatcher } from './observe-stream.js';
import { errorType, TelemetrySpan } from './telemetry-span.js';

/** How deep recorded content is copied before it is summarized (as LoggerAdvisor). */
export const REDACTION_DEPTH = 32;

/**
 * One model call as a `chat {model}` span (a child of the call span) with the GenAI
 * request, response and usage attributes, and its metrics. Per chunk it does only what
 * the chunks already carry: the first chunk's time, and the `usage`, `metadata` and
 * `finish` chunks' fields (plus the text and tool calls when content is recorded). The
 * span ends once: on completion, on error (status ERROR, `error.type`) or on unsubscribe
 * (`rx_advisors.cancelled`). When the model call is subscribed by the subscriber the
 * call's watcher rides on (nothing in between sees the chunks), its watcher rides along
 * (`CallWatcher.ride`): no subscriber layer; otherwise one layer of its own.
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
 * @param model The model call, or the chain positioned at it (called at subscription).
 * @returns The model call's chunks, unchanged.
 */
export function tracedModelCall(
  call: CallTelemetry,
  request: ChatRequest,
  chatModel: RequestChatModel | undefined,
  parent: Context,
  model: Observable<ChatChunk> | AdvisorChain,
): Observable<ChatChunk> {
  return new Observable<ChatChunk>((subscriber) => {
    const watcher = new ModelCallWatcher(call, request, chatModel, parent);
    const model$ = model instanceof Observable ? model : nextNow(model, request);
    if (call.rider?.ride(watcher, subscriber) === true) {
      otelContext.with(watcher.context, subscribeTo, undefined, model$, subscriber);
      return;
    }
    watchInto(subscriber, watcher, watcher.context, (watching) => model$.subscribe(watching));
  });
}

function subscribeTo(source$: Observable<ChatChunk>, subscriber: Subscriber<ChatChunk>): void {
  source$.subscribe(subscriber);
}

/**
 * One subscription of a traced model call: starts its span, and keeps what the chunks
 * tell until it ends. One object per model call: its fields are the state the closures of
 * a `defer` would share.
 */
class ModelCallWatcher implements StreamWatcher<ChatChunk> {
  readonly quietType: string | undefined;
  readonly context: Context;
  private readonly span: TelemetrySpan;
  private readonly requested: string | undefined;
  private readonly started = performance.now();
  private firstChunk: number | undefined;
  private usage: Usage | undefined;
  private id: string | undefined;
  private model: string | undefined;
  private finishReason: FinishReason | undefined;
  /** The text and the tool calls, when content is recorded. */
  private readonly text: string[] | undefined;
  private readonly toolCalls: ToolCall[] | undefined;

  constructor(
    private readonly call: CallTelemetry,
    request: ChatRequest,
    chatModel: RequestChatModel | undefined,
    parent: Context,
  ) {
    const { settings } = call;
    const number = ++call.modelCalls;
    const requested = request.options.model ?? chatModel?.defaultModel;
    this.requested = requested;
    const span = TelemetrySpan.start(
      settings.tracer,
      requested === undefined ? GenAi.OPERATION_CHAT : `${GenAi.OPERATION_CHAT} ${requested}`,
      {
        kind: SpanKind.CLIENT,
        attributes: requestAttributes(request, chatModel?.provider, requested, number),
      },
      parent,
    );
    this.span = span;
    this.context = span.context;
    call.latestModelCall = span;
    if (settings.recordContent) {
      recordInput(span, request, settings.maxAttributeLength);
      this.text = [];
      this.toolCalls = [];
    }
    // The per-chunk path: text deltas pass without a call, unless content is recorded.
    this.quietType = this.text === undefined ? 'text-delta' : undefined;
  }

  next(chunk: ChatChunk): void {
    if (this.firstChunk === undefined) {
      this.firstChunk = performance.now();
      this.call.settings.metrics.firstChunk(
        (this.firstChunk - this.started) / 1000,
        this.call.modelMetricAttributes(this.requested, undefined).requested,
      );
    }
    switch (chunk.type) {
      case 'usage':
        this.usage = chunk.usage;
        break;
      case 'metadata':
        if (chunk.id !== undefined) this.id = chunk.id;
        if (chunk.model !== undefined) this.model = chunk.model;
        break;
      case 'finish':
        this.finishReason = chunk.reason;
        break;
      case 'text-delta':
        this.text?.push(chunk.text);
        break;
      case 'tool-call':
        this.toolCalls?.push({ id: chunk.id, name: chunk.name, arguments: chunk.arguments });
        break;
      default:
        break;
    }
  }

  complete(): void {
    this.span.end(this.responseAttributes());
    this.recordMetrics(undefined);
  }

  error(error: unknown): void {
    this.span.fail(error, this.responseAttributes());
    this.recordMetrics(error);
  }

  cancel(): void {
    this.span.set(this.responseAttributes());
    this.span.cancel();
  }

  private responseAttributes(): Attributes {
    const { firstChunk, id, model, finishReason, usage, text, toolCalls } = this;
    const attributes: Attributes = {};
    if (firstChunk !== undefined) {
      attributes[GenAi.RESPONSE_TIME_TO_FIRST_CHUNK] = (firstChunk - this.started) / 1000;
    }
    if (id !== undefined) attributes[GenAi.RESPONSE_ID] = id;
    if (model !== undefined) attributes[GenAi.RESPONSE_MODEL] = model;
    if (finishReason !== undefined) {
      attributes[GenAi.RESPONSE_FINISH_REASONS] = finishReasons(finishReason);
    }
    if (usage !== undefined) addUsage(attributes, usage);
    if (text !== undefined && toolCalls !== undefined) {
      const output = toAttributeValue(
        [{ role: 'assistant', content: text.join(''), toolCalls }],
        this.call.settings.maxAttributeLength,
      );
      if (output !== undefined) attributes[GenAi.OUTPUT_MESSAGES] = output;
    }
    return attributes;
  }

  private recordMetrics(failure: unknown): void {
    const { call, usage } = this;
    const { metrics } = call.settings;
    const sets = call.modelMetricAttributes(this.requested, this.model);
    const seconds = (performance.now() - this.started) / 1000;
    metrics.duration(
      seconds,
      failure === undefined
        ? sets.responded
        : { ...sets.responded, [GenAi.ERROR_TYPE]: errorType(failure) },
    );
    if (usage !== undefined) {
      metrics.tokens(usage.inputTokens, usage.outputTokens, sets.input, sets.output);
      call.inputTokens += usage.inputTokens ?? 0;
      call.outputTokens += usage.outputTokens ?? 0;
    }
  }
}

/** `gen_ai.response.finish_reasons` of a reason: one frozen array per reason, not one per round. */
const FINISH_REASONS = new Map<string, readonly string[]>();

/**
 * The finish reasons attribute of a finish reason (`tool-calls` → `['tool_calls']`).
 * @internal
 * @example
 * ```ts
 * finishReasons('tool-calls'); // ['tool_calls'], the same array every time
 * ```
 * @param reason The reason of a `finish` chunk.
 * @returns The attribute value.
 */
export function finishReasons(reason: string): string[] {
  let value = FINISH_REASONS.get(reason);
  if (value === undefined) {
    value = Object.freeze([reason.replace(/-/g, '_')]);
    // Bounded: the reasons are the `FinishReason` values (a provider's own are mapped to them).
    if (FINISH_REASONS.size < 64) FINISH_REASONS.set(reason, value);
  }
  // Attribute values are read, never changed, by the SDK and its exporters.
  return value as string[];
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
  const { inputTokens, outputTokens, cacheReadTokens, cacheWriteTokens, reasoningTokens } = usage;
  if (typeof inputTokens === 'number') attributes[GenAi.USAGE_INPUT_TOKENS] = inputTokens;
  if (typeof outputTokens === 'number') attributes[GenAi.USAGE_OUTPUT_TOKENS] = outputTokens;
  if (typeof cacheReadTokens === 'number') {
    attributes[GenAi.USAGE_CACHE_READ_INPUT_TOKENS] = cacheReadTokens;
  }
  if (typeof cacheWriteTokens === 'number') {
    attributes[GenAi.USAGE_CACHE_CREATION_INPUT_TOKENS] = cacheWriteTokens;
  }
  if (typeof reasoningTokens === 'number') {
    attributes[GenAi.USAGE_REASONING_OUTPUT_TOKENS] = reasoningTokens;
  }
}
