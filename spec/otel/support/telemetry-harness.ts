import { context, type Attributes } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import {
  AggregationTemporality,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
  type DataPoint,
  type Histogram,
} from '@opentelemetry/sdk-metrics';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { OpenTelemetryAdvisor, type OpenTelemetryAdvisorOptions } from '../../../lib/otel/index';

/** The real SDK: a tracer provider with an in-memory exporter, a meter provider with an in-memory metric exporter. */
export class TelemetryHarness {
  readonly spanExporter = new InMemorySpanExporter();
  readonly metricExporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
  readonly reader = new PeriodicExportingMetricReader({
    exporter: this.metricExporter,
    exportIntervalMillis: 3_600_000,
  });
  readonly tracerProvider: BasicTracerProvider;
  readonly meterProvider = new MeterProvider({ readers: [this.reader] });

  constructor(extraProcessors: SpanProcessor[] = []) {
    this.tracerProvider = new BasicTracerProvider({
      spanProcessors: [...extraProcessors, new SimpleSpanProcessor(this.spanExporter)],
    });
  }

  advisor(options: OpenTelemetryAdvisorOptions = {}): OpenTelemetryAdvisor {
    return new OpenTelemetryAdvisor({
      tracerProvider: this.tracerProvider,
      meterProvider: this.meterProvider,
      ...options,
    });
  }

  /** Finished spans, in the order they ended. */
  get spans(): ReadableSpan[] {
    return this.spanExporter.getFinishedSpans();
  }

  span(name: string): ReadableSpan {
    const found = this.spans.filter((span) => span.name === name);
    if (found.length !== 1) {
      throw new Error(`expected one span ${name}, got ${found.length}: ${this.names().join(', ')}`);
    }
    return found[0];
  }

  names(): string[] {
    return this.spans.map((span) => span.name);
  }

  /** The data points of one metric, after a flush. */
  async points(name: string): Promise<DataPoint<number | Histogram>[]> {
    await this.reader.forceFlush();
    const batches = this.metricExporter.getMetrics();
    const last = batches[batches.length - 1];
    const metric = last?.scopeMetrics
      .flatMap((scope) => scope.metrics)
      .find((m) => m.descriptor.name === name);
    return (metric?.dataPoints ?? []) as DataPoint<number | Histogram>[];
  }

  async shutdown(): Promise<void> {
    await this.tracerProvider.shutdown();
    await this.meterProvider.shutdown();
  }
}

export const parentOf = (span: ReadableSpan): string | undefined => span.parentSpanContext?.spanId;

export const idOf = (span: ReadableSpan): string => span.spanContext().spanId;

/** The attributes of a data point, for matching. */
export const attributesOf = (point: DataPoint<unknown>): Attributes => point.attributes;

/** Installs the AsyncLocalStorage context manager for the duration of a describe block. */
export function useAsyncLocalStorageContext(): void {
  let manager: AsyncLocalStorageContextManager;
  beforeAll(() => {
    manager = new AsyncLocalStorageContextManager().enable();
    context.setGlobalContextManager(manager);
  });
  afterAll(() => {
    manager.disable();
    context.disable();
  });
}
