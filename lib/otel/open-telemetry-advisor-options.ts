import type { MeterProvider, TracerProvider } from '@opentelemetry/api';
import { Order } from '../advisor-api/order.js';
import { ADVISOR_IDENTITY_RULES } from '../advisor-api/validate-advisor-identity.js';
import type { ChatRequest } from '../core/chat-request.js';
import { Rules, type OptionRules } from '../core/validate-options.js';

/**
 * Options of `OpenTelemetryAdvisor`; every one has a default.
 * @example
 * ```ts
 * import { OpenTelemetryAdvisor, type OpenTelemetryAdvisorOptions } from 'rx-advisors/otel';
 * const options: OpenTelemetryAdvisorOptions = { recordContent: false, advisorSpans: true };
 * const telemetry = new OpenTelemetryAdvisor(options);
 * ```
 */
export interface OpenTelemetryAdvisorOptions {
  /** Where spans go; default the global tracer provider (`trace.getTracerProvider()`). */
  tracerProvider?: TracerProvider;
  /** Where metrics go; default the global meter provider, read at each call. */
  meterProvider?: MeterProvider;
  /**
   * Record prompts, answers, request options, tool arguments and results; default
   * `false`. Recorded options and tool arguments go through the same secret redaction as
   * `LoggerAdvisor` (fields named like keys, tokens, passwords, headers).
   */
  recordContent?: boolean;
  /** One span per advisor of the chain (name, order, model call); default `false`. */
  advisorSpans?: boolean;
  /**
   * Extra attributes for the call span, from the request (for example a tenant id).
   * Non-primitive values are serialized as JSON; values that cannot be are dropped. The
   * conversation id (`AdvisorParams.CONVERSATION_ID`) is recorded without it.
   */
  attributes?: (request: ChatRequest) => Readonly<Record<string, unknown>>;
  /** Longest string attribute (recorded content, serialized values), in characters; default 8192. */
  maxAttributeLength?: number;
  /** Default `'OpenTelemetryAdvisor'`. */
  name?: string;
  /** Default `Order.HIGHEST_PRECEDENCE`: outermost, so the call span covers every advisor. */
  order?: number;
}

/**
 * The defaults of {@link OpenTelemetryAdvisorOptions} (the providers default to the
 * global ones, read when needed).
 * @internal
 */
export const OPEN_TELEMETRY_ADVISOR_DEFAULTS = {
  recordContent: false,
  advisorSpans: false,
  maxAttributeLength: 8192,
  name: 'OpenTelemetryAdvisor',
  order: Order.HIGHEST_PRECEDENCE,
} as const satisfies OpenTelemetryAdvisorOptions;

/**
 * The rules of {@link OpenTelemetryAdvisorOptions}.
 * @internal
 */
export const OPEN_TELEMETRY_ADVISOR_RULES: OptionRules<OpenTelemetryAdvisorOptions> = {
  ...ADVISOR_IDENTITY_RULES,
  tracerProvider: Rules.custom(
    'a TracerProvider (an object with getTracer())',
    (value) => typeof (value as { getTracer?: unknown } | null)?.getTracer === 'function',
  ),
  meterProvider: Rules.custom(
    'a MeterProvider (an object with getMeter())',
    (value) => typeof (value as { getMeter?: unknown } | null)?.getMeter === 'function',
  ),
  recordContent: Rules.boolean,
  advisorSpans: Rules.boolean,
  attributes: Rules.func,
  maxAttributeLength: Rules.integer(16),
};

/**
 * Per-call switches of the telemetry advisor, set with `advisorParams(...)`.
 * @example
 * ```ts
 * import { TelemetryParams } from 'rx-advisors/otel';
 * client.prompt('Hi').advisorParams({ [TelemetryParams.ENABLED]: false }).call().content();
 * client.prompt('Hi').advisorParams({ [TelemetryParams.ATTRIBUTES]: { tenant: 't1' } });
 * ```
 */
export const TelemetryParams = {
  /** `false`: no spans and no metrics for this call. */
  ENABLED: 'rx-advisors.otel.enabled',
  /** A record of extra attributes for this call's span, merged over the option's. */
  ATTRIBUTES: 'rx-advisors.otel.attributes',
} as const;
