import type { Attributes, Tracer } from '@opentelemetry/api';
import type { Subscriber } from 'rxjs';
import type { ChatChunk } from '../core/chat-chunk.js';
import { GenAi, RxAttributes } from './gen-ai-conventions.js';
import type { TelemetryMetrics } from './telemetry-metrics.js';
import type { StreamWatcher } from './observe-stream.js';
import type { TelemetrySpan } from './telemetry-span.js';

/**
 * The call's watcher riding on the call's subscriber (`CallWatcher`): takes a model call's
 * watcher along when that subscriber subscribes the model call itself.
 * @internal
 */
export interface CallRider {
  ride(model: StreamWatcher<ChatChunk>, subscriber: Subscriber<ChatChunk>): boolean;
}

/**
 * What every span of one call is made with: the tracer, the instruments, and the
 * content and advisor-span switches, resolved once per advisor (per call for the global
 * meter provider).
 * @internal
 */
export interface TelemetrySettings {
  readonly tracer: Tracer;
  readonly metrics: TelemetryMetrics;
  readonly recordContent: boolean;
  readonly advisorSpans: boolean;
  readonly maxAttributeLength: number;
}

/**
 * The metric attributes of a model call, made once per call for each request and
 * response model (the metric SDK hashes them on every record; the objects themselves
 * need not be made again every round).
 * @internal
 */
export interface ModelMetricAttributes {
  /** Operation, provider, request model: the time to first chunk. */
  readonly requested: Attributes;
  /** Plus the response model: the duration. */
  readonly responded: Attributes;
  /** Plus `gen_ai.token.type` `input`. */
  readonly input: Attributes;
  /** Plus `gen_ai.token.type` `output`. */
  readonly output: Attributes;
}

/**
 * A tool span while its tool runs: where a nested call (an agent tool's) finds its parent
 * span, and the nested calls traced without an advisor of their own that end with it.
 * @internal
 */
export interface RunningTool {
  readonly name: string;
  readonly description: string | undefined;
  readonly span: TelemetrySpan;
  /** Whether a nested call already took it as its parent. */
  claimed: boolean;
  /** Nested calls traced through the inherited interceptors, ended with this tool span. */
  readonly nested: CallTelemetry[];
}

/**
 * The telemetry state of one ChatClient call (one subscription): its span, its model
 * calls so far, and the latest model-call span, which is the parent of the tools that
 * model call asked for (tools run after their round's model call and before the next).
 * A nested call with no `OpenTelemetryAdvisor` of its own (an agent tool's client) gets
 * one too, made by the interceptors its ancestor registered with `inherit`: its `root` is
 * that ancestor's, and its span is an `invoke_agent` span (docs/observability.md).
 * @internal
 * @example
 * ```ts
 * const call = new CallTelemetry(settings, span, { 'gen_ai.provider.name': 'openai' });
 * ```
 */
export class CallTelemetry {
  /** Model calls started so far (tool-loop rounds and retries). */
  modelCalls = 0;
  /** The latest model-call span. */
  latestModelCall: TelemetrySpan | undefined;
  /** The call's watcher when it rides on the call's subscriber (no layer of its own). */
  rider: CallRider | undefined;
  private readonly modelAttributes = new Map<string, ModelMetricAttributes>();
  private readonly toolAttributes = new Map<string, Attributes>();
  /** Tool spans running now, in start order. */
  readonly runningTools: RunningTool[] = [];
  /** Nested calls traced without an advisor of their own and not under a tool span. */
  readonly nestedCalls: CallTelemetry[] = [];
  /** Tokens of the model calls ended so far (the `invoke_agent` span of a nested call). */
  inputTokens = 0;
  outputTokens = 0;
  /**
   * The call whose advisor's interceptors trace this one: itself for a call with its own
   * `OpenTelemetryAdvisor`, the ancestor's for a nested call traced without one.
   */
  readonly root: CallTelemetry;

  constructor(
    readonly settings: TelemetrySettings,
    readonly span: TelemetrySpan,
    /** Low-cardinality attributes shared by the call's metrics (operation, provider). */
    readonly metricAttributes: Attributes,
    /** For a nested call traced without an advisor of its own: the tracing ancestor's root. */
    root?: CallTelemetry,
  ) {
    this.root = root ?? this;
  }

  /** Whether this is a nested call traced by an ancestor's interceptors (no advisor of its own). */
  get isInherited(): boolean {
    return this.root !== this;
  }

  /**
   * Ends the spans of the nested calls traced without an advisor of their own, as `end`
   * (success), `error` or cancel says (once; later calls do nothing).
   * @param nested The nested calls.
   * @param error What failed, `undefined` on success; `null` for a cancel.
   */
  static endNested(nested: readonly CallTelemetry[], error: unknown): void {
    for (const call of nested) {
      const attributes: Attributes = { [RxAttributes.ROUNDS]: call.modelCalls };
      if (call.modelCalls > 0) {
        attributes[GenAi.USAGE_INPUT_TOKENS] = call.inputTokens;
        attributes[GenAi.USAGE_OUTPUT_TOKENS] = call.outputTokens;
      }
      CallTelemetry.endNested(call.nestedCalls, error);
      if (error === null) {
        call.span.set(attributes);
        call.span.cancel();
      } else if (error === undefined) call.span.end(attributes);
      else call.span.fail(error, attributes);
    }
  }

  /**
   * The metric attributes of a model call, the same objects for every round that asks
   * the same model and hears back from the same one.
   * @param requested The request's model, when set.
   * @param responded The response's model, when reported.
   * @returns The attribute sets.
   */
  modelMetricAttributes(
    requested: string | undefined,
    responded: string | undefined,
  ): ModelMetricAttributes {
    const key = `${requested ?? ''}\u0000${responded ?? ''}`;
    let sets = this.modelAttributes.get(key);
    if (sets === undefined) {
      const base: Attributes = { ...this.metricAttributes };
      if (requested !== undefined) base[GenAi.REQUEST_MODEL] = requested;
      const withResponse: Attributes =
        responded === undefined ? base : { ...base, [GenAi.RESPONSE_MODEL]: responded };
      sets = {
        requested: base,
        responded: withResponse,
        input: { ...withResponse, [GenAi.TOKEN_TYPE]: 'input' },
        output: { ...withResponse, [GenAi.TOKEN_TYPE]: 'output' },
      };
      this.modelAttributes.set(key, sets);
    }
    return sets;
  }

  /**
   * The metric attributes of a tool's executions in this call (one object per tool name).
   * @param name The tool's name.
   * @returns Operation and tool name.
   */
  toolMetricAttributes(name: string): Attributes {
    let attributes = this.toolAttributes.get(name);
    if (attributes === undefined) {
      attributes = {
        [GenAi.OPERATION_NAME]: GenAi.OPERATION_EXECUTE_TOOL,
        [GenAi.TOOL_NAME]: name,
      };
      this.toolAttributes.set(name, attributes);
    }
    return attributes;
  }
}
