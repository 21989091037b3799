import type { Attributes, Tracer } from '@opentelemetry/api';
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

  constructor(
    readonly settings: TelemetrySettings,
    readonly span: TelemetrySpan,
    /** Low-cardinality attributes shared by the call's metrics (operation, provider). */
    readonly metricAttributes: Attributes,
  ) {}
}
