import type { Attributes, Tracer } from '@opentelemetry/api';
import { GenAi } from './gen-ai-conventions.js';
import type { TelemetryMetrics } from './telemetry-metrics.js';
import type { TelemetrySpan } from './telemetry-span.js';

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
 * The telemetry state of one ChatClient call (one subscription): its span, its model
 * calls so far, and the latest model-call span, which is the parent of the tools that
 * model call asked for (tools run after their round's model call and before the next).
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
  private readonly modelAttributes = new Map<string, ModelMetricAttributes>();
  private readonly toolAttributes = new Map<string, Attributes>();

  constructor(
    readonly settings: TelemetrySettings,
    readonly span: TelemetrySpan,
    /** Low-cardinality attributes shared by the call's metrics (operation, provider). */
    readonly metricAttributes: Attributes,
  ) {}

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
