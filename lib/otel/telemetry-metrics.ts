import {
  createNoopMeter,
  type Attributes,
  type Counter,
  type Histogram,
  type Meter,
} from '@opentelemetry/api';
import { GenAi, RxAttributes } from './gen-ai-conventions.js';
import { MetricAttributeSets } from './metric-attribute-sets.js';

/** The GenAI conventions' advice on token-usage buckets (powers of 4). */
const TOKEN_BUCKETS = [
  1, 4, 16, 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304, 16777216, 67108864,
];
/** The GenAI conventions' advice on duration buckets, in seconds. */
const DURATION_BUCKETS = [
  0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92,
];

/**
 * The instruments of the telemetry advisor, made once per meter. Recording never throws:
 * a broken metric reader costs the data point, never the chat stream.
 * @internal
 * @example
 * ```ts
 * const metrics = new TelemetryMetrics(meterProvider.getMeter('rx-advisors'));
 * metrics.rounds(2, {});
 * ```
 */
export class TelemetryMetrics {
  private readonly tokenUsage: Histogram;
  private readonly operationDuration: Histogram;
  private readonly timeToFirstChunk: Histogram;
  private readonly toolDuration: Histogram;
  private readonly toolErrors: Counter;
  private readonly roundsPerCall: Histogram;
  private readonly guardrailTrips: Counter;
  /** Whether the meter is the API's no-op meter (no SDK registered): nothing is recorded. */
  readonly isNoop: boolean;
  /** The attribute sets recorded with these instruments, made once. */
  readonly sets = new MetricAttributeSets();

  /** @param meter The meter the instruments are made with. */
  constructor(meter: Meter) {
    this.isNoop = meter === createNoopMeter();
    this.tokenUsage = meter.createHistogram(GenAi.METRIC_TOKEN_USAGE, {
      description: 'Input and output tokens per model call',
      unit: '{token}',
      advice: { explicitBucketBoundaries: TOKEN_BUCKETS },
    });
    this.operationDuration = meter.createHistogram(GenAi.METRIC_OPERATION_DURATION, {
      description: 'Duration of a model call, to its last chunk',
      unit: 's',
      advice: { explicitBucketBoundaries: DURATION_BUCKETS },
    });
    this.timeToFirstChunk = meter.createHistogram(GenAi.METRIC_TIME_TO_FIRST_CHUNK, {
      description: 'Time from the start of a model call to its first chunk',
      unit: 's',
      advice: { explicitBucketBoundaries: DURATION_BUCKETS },
    });
    this.toolDuration = meter.createHistogram(RxAttributes.METRIC_TOOL_DURATION, {
      description: 'Duration of a tool execution',
      unit: 's',
      advice: { explicitBucketBoundaries: DURATION_BUCKETS },
    });
    this.toolErrors = meter.createCounter(RxAttributes.METRIC_TOOL_ERRORS, {
      description: 'Tool executions that failed',
      unit: '{error}',
    });
    this.roundsPerCall = meter.createHistogram(RxAttributes.METRIC_ROUNDS, {
      description: 'Model calls (tool-loop rounds and retries) per ChatClient call',
      unit: '{round}',
      advice: { explicitBucketBoundaries: [1, 2, 3, 4, 5, 8, 10, 16, 32] },
    });
    this.guardrailTrips = meter.createCounter(RxAttributes.METRIC_GUARDRAIL_TRIPS, {
      description: 'Guardrail trips that ended a call (a guardrail-tripped chunk)',
      unit: '{trip}',
    });
  }

  /**
   * Counts a guardrail trip.
   * @param attributes The call's metric attributes, the guardrail's name and stage.
   */
  guardrailTrip(attributes: Attributes): void {
    try {
      this.guardrailTrips.add(1, attributes);
    } catch {
      // A broken metric reader never breaks the stream.
    }
  }

  /**
   * Records a model call's token usage (`gen_ai.token.type` `input` and `output`).
   * @param input Input tokens, when reported.
   * @param output Output tokens, when reported.
   * @param inputAttributes The model call's metric attributes with the `input` token type.
   * @param outputAttributes The same with the `output` token type.
   */
  tokens(
    input: number | undefined,
    output: number | undefined,
    inputAttributes: Attributes,
    outputAttributes: Attributes,
  ): void {
    if (input !== undefined) record(this.tokenUsage, input, inputAttributes);
    if (output !== undefined) record(this.tokenUsage, output, outputAttributes);
  }

  /**
   * Records a model call's duration.
   * @param seconds The duration.
   * @param attributes The model call's metric attributes (with `error.type` on failure).
   */
  duration(seconds: number, attributes: Attributes): void {
    record(this.operationDuration, seconds, attributes);
  }

  /**
   * Records a model call's time to first chunk.
   * @param seconds The time.
   * @param attributes The model call's metric attributes.
   */
  firstChunk(seconds: number, attributes: Attributes): void {
    record(this.timeToFirstChunk, seconds, attributes);
  }

  /**
   * Records a tool execution, and counts it as an error when `errorType` is set.
   * @param seconds The duration.
   * @param attributes The tool's metric attributes.
   * @param errorType The error type, when it failed.
   */
  tool(seconds: number, attributes: Attributes, errorType?: string): void {
    const all =
      errorType === undefined ? attributes : { ...attributes, [GenAi.ERROR_TYPE]: errorType };
    record(this.toolDuration, seconds, all);
    if (errorType === undefined) return;
    try {
      this.toolErrors.add(1, all);
    } catch {
      // As in `record`.
    }
  }

  /**
   * Records the number of model calls of a ChatClient call.
   * @param count The model calls.
   * @param attributes The call's metric attributes.
   */
  rounds(count: number, attributes: Attributes): void {
    record(this.roundsPerCall, count, attributes);
  }
}

/** Records on a histogram; no closure per record. A broken metric reader never breaks the stream. */
function record(histogram: Histogram, value: number, attributes: Attributes): void {
  try {
    histogram.record(value, attributes);
  } catch {
    // A broken metric reader never breaks the stream.
  }
}
