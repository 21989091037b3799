// OpenTelemetry traces for the demo, on only when OTEL_EXPORTER_OTLP_ENDPOINT is set.
import type { Advisor } from '../../lib/index.js';

/** What the demo adds to its client for telemetry, and how to flush it on shutdown. */
export interface DemoTelemetry {
  /** The advisors to add (`OpenTelemetryAdvisor`), or none. */
  readonly advisors: Advisor[];
  /** What the demo prints about it, or `undefined` when off. */
  readonly description: string | undefined;
  /** Flushes and stops the exporter. */
  shutdown(): Promise<void>;
}

/**
 * With `OTEL_EXPORTER_OTLP_ENDPOINT` set (for example `http://localhost:4318`), registers a
 * Node tracer provider (AsyncLocalStorage context) exporting spans over OTLP/HTTP (JSON)
 * and returns an `OpenTelemetryAdvisor`; otherwise nothing is loaded and nothing is sent.
 * The OTLP exporter reads the standard `OTEL_EXPORTER_OTLP_*` variables itself.
 * @example
 * ```ts
 * const telemetry = await startDemoTelemetry(process.env);
 * ```
 * @param env The environment.
 * @returns The demo's telemetry.
 */
export async function startDemoTelemetry(env: NodeJS.ProcessEnv): Promise<DemoTelemetry> {
  const endpoint = env['OTEL_EXPORTER_OTLP_ENDPOINT'];
  if (endpoint === undefined || endpoint === '') {
    return { advisors: [], description: undefined, shutdown: () => Promise.resolve() };
  }
  // Loaded only when asked for, as the model SDKs are.
  const [
    { NodeTracerProvider, BatchSpanProcessor },
    { OTLPTraceExporter },
    { OpenTelemetryAdvisor },
  ] = await Promise.all([
    import('@opentelemetry/sdk-trace-node'),
    import('@opentelemetry/exporter-trace-otlp-http'),
    import('../../lib/otel/index.js'),
  ]);
  const provider = new NodeTracerProvider({
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter())],
  });
  provider.register();
  return {
    advisors: [new OpenTelemetryAdvisor()],
    description: `traces to ${endpoint} (OTLP/HTTP)`,
    shutdown: () => provider.shutdown(),
  };
}
