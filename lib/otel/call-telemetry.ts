import type { Attributes, Tracer } from '@opentelemetry/api';
import type { Subscriber } from 'rxjs';
import type { ChatChunk } from '../core/chat-chunk.js';
import { GenAi, RxAttributes } from './gen-ai-conventions.js';
import type { ModelMetricAttributes } from './metric-attribute-sets.js';
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
 * const call = new CallTelemetry(settings, span, 'openai');
 * ```
 */
export class CallTelemetry {
  /** Model calls started so far (tool-loop rounds and retries). */
  modelCalls = 0;
  /** The latest model-call span. */
  latestModelCall: TelemetrySpan | undefined;
  /** The call's watcher when it rides on the call's subscriber (no layer of its own). */
  rider: CallRider | undefined;
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
    /** The call model's provider, when known (in every metric attribute set). */
    readonly provider: string | undefined,
    /** For a nested call traced without an advisor of its own: the tracing ancestor's root. */
    root?: CallTelemetry,
  ) {
    this.root = root ?? this;
    this.metricAttributes = settings.metrics.sets.call(provider);
  }

  /** Low-cardinality attributes shared by the call's metrics (operation, provider). */
  readonly metricAttributes: Attributes;

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
   * The metric attributes of a model call, the same objects for every call and round that
   * asks the same model and hears back from the same one (kept per meter).
   * @param requested The request's model, when set.
   * @param responded The response's model, when reported.
   * @returns The attribute sets.
   */
  modelMetricAttributes(
    requested: string | undefined,
    responded: string | undefined,
  ): ModelMetricAttributes {
    return this.settings.metrics.sets.model(this.provider, requested, responded);
  }

  /**
   * The metric attributes of a tool's executions (one object per tool name, kept per meter).
   * @param name The tool's name.
   * @returns Operation and tool name.
   */
  toolMetricAttributes(name: string): Attributes {
    return this.settings.metrics.sets.tool(name);
  }
}
