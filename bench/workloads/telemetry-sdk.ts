import { context, SpanKind, trace, type Attributes } from '@opentelemetry/api';
import {
  AggregationTemporality,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
} from '@opentelemetry/sdk-metrics';
import {
  BasicTracerProvider,
  BatchSpanProcessor,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';

/** The OpenTelemetry SDK as the telemetry workload sets it up: in-memory span and metric exporters. */
export interface TelemetrySdk {
  readonly spans: InMemorySpanExporter;
  readonly tracerProvider: BasicTracerProvider;
  readonly meterProvider: MeterProvider;
}

/**
 * The real SDK, exporting to memory (the span exporter is drained after every run so
 * memory stays flat): a `BatchSpanProcessor` with its defaults (`SimpleSpanProcessor`
 * with `BENCH_OTEL_PROCESSOR=simple`), and a metric reader that never exports during a
 * run.
 * @returns The providers and the span exporter.
 */
export function telemetrySdk(): TelemetrySdk {
  const spans = new InMemorySpanExporter();
  // The processor production uses by default; BENCH_OTEL_PROCESSOR=simple for the one the
  // SDK documents for tests and debugging (it exports every span as it ends).
  const processor =
    process.env['BENCH_OTEL_PROCESSOR'] === 'simple'
      ? new SimpleSpanProcessor(spans)
      : new BatchSpanProcessor(spans);
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [processor] });
  const reader = new PeriodicExportingMetricReader({
    exporter: new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE),
    exportIntervalMillis: 3_600_000,
  });
  const meterProvider = new MeterProvider({ readers: [reader] });
  return { spans, tracerProvider, meterProvider };
}

/**
 * The SDK as a plain user sets it up (issue 32): a `BasicTracerProvider` with a
 * `BatchSpanProcessor` over an `InMemorySpanExporter`, and a `MeterProvider` whose
 * `PeriodicExportingMetricReader` keeps its default interval (60 s: nothing is exported
 * during a run); every other setting the SDK's default. The exporter is drained after
 * every run, as in {@link telemetrySdk}, unless `BENCH_OTEL_KEEP_SPANS=1` (a user's
 * exporter that keeps every span: memory and garbage-collection time grow with the run).
 * @returns The providers and the span exporter.
 */
export function userTelemetrySdk(): TelemetrySdk {
  const spans = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({
    // BENCH_OTEL_BATCH=n (an experiment of docs/performance.md): export every n spans
    // instead of the default 512, so fewer ended spans wait in the processor's buffer.
    spanProcessors: [
      new BatchSpanProcessor(
        spans,
        process.env['BENCH_OTEL_BATCH'] === undefined
          ? {}
          : { maxExportBatchSize: Number(process.env['BENCH_OTEL_BATCH']) },
      ),
    ],
  });
  const meterProvider = new MeterProvider({
    readers: [
      new PeriodicExportingMetricReader({
        exporter: new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE),
      }),
    ],
  });
  return { spans, tracerProvider, meterProvider };
}

const floors = new WeakMap<TelemetrySdk, ReturnType<typeof instruments>>();

function instruments(sdk: TelemetrySdk) {
  const meter = sdk.meterProvider.getMeter('bench-floor');
  return {
    tracer: sdk.tracerProvider.getTracer('bench-floor'),
    tokens: meter.createHistogram('gen_ai.client.token.usage'),
    duration: meter.createHistogram('gen_ai.client.operation.duration'),
    firstChunk: meter.createHistogram('gen_ai.client.operation.time_to_first_chunk'),
    tool: meter.createHistogram('rx_advisors.tool.duration'),
    rounds: meter.createHistogram('rx_advisors.rounds'),
  };
}

/**
 * The SDK floor of one tool-loop round: what `OpenTelemetryAdvisor` asks of the SDK per
 * round, made directly on it with the same names and attributes and no rx-advisors — a
 * `chat` span (request attributes at the start, response and usage attributes at the end),
 * an `execute_tool` span under it, and five metric records (time to first chunk, duration,
 * input and output tokens, tool duration). `round` 1 also starts and `toolRound` false
 * ends nothing more: the per-call span and rounds record are {@link sdkFloorCall}'s.
 * @param sdk The SDK.
 * @param round The round number.
 * @param withTool Whether the round ran a tool (every round but the last).
 */
export function sdkFloorRound(sdk: TelemetrySdk, round: number, withTool = true): void {
  let floor = floors.get(sdk);
  if (floor === undefined) {
    floor = instruments(sdk);
    floors.set(sdk, floor);
  }
  const parent = context.active();
  const chat = floor.tracer.startSpan(
    'chat',
    {
      kind: SpanKind.CLIENT,
      attributes: {
        'gen_ai.operation.name': 'chat',
        'rx_advisors.model_call': round,
        'gen_ai.provider.name': 'bench',
      },
    },
    parent,
  );
  const metric: Attributes = { 'gen_ai.operation.name': 'chat', 'gen_ai.provider.name': 'bench' };
  floor.firstChunk.record(0.001, metric);
  chat.setAttributes({
    'gen_ai.response.time_to_first_chunk': 0.001,
    'gen_ai.response.id': `bench-${round}`,
    'gen_ai.response.model': 'bench-model',
    'gen_ai.response.finish_reasons': [withTool ? 'tool_calls' : 'stop'],
    'gen_ai.usage.input_tokens': 12,
    'gen_ai.usage.output_tokens': 34,
  });
  chat.end();
  const ended: Attributes = { ...metric, 'gen_ai.response.model': 'bench-model' };
  floor.duration.record(0.002, ended);
  floor.tokens.record(12, { ...ended, 'gen_ai.token.type': 'input' });
  floor.tokens.record(34, { ...ended, 'gen_ai.token.type': 'output' });
  if (!withTool) return;
  const tool = floor.tracer.startSpan(
    'execute_tool noop',
    {
      kind: SpanKind.INTERNAL,
      attributes: {
        'gen_ai.operation.name': 'execute_tool',
        'gen_ai.tool.name': 'noop',
        'gen_ai.tool.type': 'function',
        'gen_ai.tool.call.id': `call_${round}`,
        'rx_advisors.round': round,
        'gen_ai.tool.description': 'Does nothing',
      },
    },
    trace.setSpan(parent, chat),
  );
  tool.end();
  floor.tool.record(0.0001, {
    'gen_ai.operation.name': 'execute_tool',
    'gen_ai.tool.name': 'noop',
  });
}

/**
 * The SDK floor made inside the loop it measures (issue 32, third pass): per call, the
 * call span and the rounds record around the call, and at every model call the
 * {@link sdkFloorRound} of that round, from the model's script; the stream itself runs
 * with telemetry off. Its spans wait in the same `BatchSpanProcessor` while the same
 * loop allocates around them, so it pays the SDK's garbage-collection cost in that loop:
 * on − this is the advisor's own cost, collections included.
 * @param sdk The SDK.
 * @returns `start()` before a call (gives `end(rounds)` for after it) and `round(n, withTool)`.
 */
export function floorInLoop(sdk: TelemetrySdk): {
  start(): (rounds: number) => void;
  round(round: number, withTool: boolean): void;
} {
  const tracer = sdk.tracerProvider.getTracer('bench-floor');
  const roundsRecord = sdk.meterProvider.getMeter('bench-floor').createHistogram('rounds');
  const attributes: Attributes = { 'gen_ai.operation.name': 'chat' };
  return {
    start: () => {
      const span = tracer.startSpan('invoke_workflow', {
        attributes: { 'gen_ai.operation.name': 'invoke_workflow' },
      });
      return (rounds) => {
        span.setAttributes({ 'rx_advisors.rounds': rounds });
        span.end();
        roundsRecord.record(rounds, attributes);
      };
    },
    round: (round, withTool) => sdkFloorRound(sdk, round, withTool),
  };
}
