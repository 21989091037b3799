import {
  AggregationTemporality,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
} from '@opentelemetry/sdk-metrics';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { ChatClient, ToolCallingAdvisor, type Advisor } from 'rx-advisors';
import { OpenTelemetryAdvisor } from 'rx-advisors/otel';
import { collectText, noopTool, passThroughAdvisors } from '../adapters/rx-advisors.js';
import { BenchChatModel } from '../harness/bench-chat-model.js';
import { roundOf, textChunks, toolRoundChunks } from '../harness/chunks.js';
import { textFixture } from '../harness/fixtures.js';
import { checkText, interleaveTimed } from '../harness/measure.js';
import { quartiles } from '../harness/stats.js';
import type { Report } from '../harness/report.js';
import type { BenchAdapter, TextFixture } from '../harness/types.js';
import type { BenchConfig } from './config.js';

type Telemetry = 'off' | 'noop' | 'on';

/** The real SDK, exporting to memory (drained after every run so memory stays flat). */
function sdk() {
  const spans = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({
    spanProcessors: [new SimpleSpanProcessor(spans)],
  });
  const reader = new PeriodicExportingMetricReader({
    exporter: new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE),
    exportIntervalMillis: 3_600_000,
  });
  const meterProvider = new MeterProvider({ readers: [reader] });
  return { spans, tracerProvider, meterProvider };
}

/** W1 and W2 of rx-advisors, as three variants: no telemetry, the API's no-op, the SDK. */
function variant(telemetry: Telemetry, fixture: TextFixture, rounds: number): BenchAdapter {
  const otel = sdk();
  const advisors = (): Advisor[] => {
    if (telemetry === 'off') return [];
    if (telemetry === 'noop') return [new OpenTelemetryAdvisor()];
    return [
      new OpenTelemetryAdvisor({
        tracerProvider: otel.tracerProvider,
        meterProvider: otel.meterProvider,
      }),
    ];
  };
  const chunks = textChunks(fixture);
  const stream = ChatClient.builder(new BenchChatModel({ script: () => chunks }))
    .defaultAdvisors(...advisors(), ...passThroughAdvisors(5))
    .build();
  const loop = ChatClient.builder(
    new BenchChatModel({
      script: (_call, request) => {
        const round = roundOf(request);
        return round <= rounds ? toolRoundChunks(round) : chunks;
      },
    }),
  )
    .defaultAdvisors(...advisors(), new ToolCallingAdvisor({ maxRounds: rounds + 1 }))
    .defaultTools(noopTool)
    .build();
  const drained = async (text: Promise<string>): Promise<string> => {
    const result = await text;
    otel.spans.reset();
    return result;
  };
  return {
    framework: 'rx-advisors',
    passThroughLabel: `telemetry ${telemetry}`,
    toolLoopLabel: `telemetry ${telemetry}`,
    stream: () => drained(collectText(stream.prompt('Hi').stream().content())),
    toolLoop: () => drained(collectText(loop.prompt('Hi').stream().content())),
    parked: () => Promise.reject(new Error('not part of the telemetry workload')),
    firstChunk: () => Promise.reject(new Error('not part of the telemetry workload')),
  };
}

/**
 * Telemetry overhead (`npm run bench -- --only=OTEL`): W1 (n = 10,000 chunks, 5
 * pass-through advisors; ns per chunk) and W2 (20 tool rounds; µs per round) through
 * rx-advisors with no telemetry, with `OpenTelemetryAdvisor` over the API's no-op
 * providers, and over the real SDK (in-memory span and metric exporters). Rows carry
 * `telemetry: off | noop | on`.
 */
export async function runTelemetry(config: BenchConfig, report: Report): Promise<void> {
  const n = config.w1Sizes[0] ?? 10_000;
  const rounds = config.w2Rounds[0] ?? 20;
  const fixture = textFixture(n);
  const loopFixture = textFixture(20);
  const streams = (['off', 'noop', 'on'] as const).map(
    (t) => [t, variant(t, fixture, rounds)] as const,
  );
  const loops = (['off', 'noop', 'on'] as const).map(
    (t) => [t, variant(t, loopFixture, rounds)] as const,
  );
  const w1 = await interleaveTimed(
    streams.map(([, adapter]) => adapter),
    () => config.w1Plan(n),
    (adapter) => adapter.stream(fixture, 5),
    (adapter, text) => checkText(adapter, `W1 telemetry n=${n}`, text, fixture.text),
    1e6 / n,
  );
  for (const [telemetry, adapter] of streams)
    add(report, 'W1', { n, advisors: 5, telemetry }, 'ns-per-chunk', w1.get(adapter));
  const w2 = await interleaveTimed(
    loops.map(([, adapter]) => adapter),
    () => config.w2Plan,
    (adapter) => adapter.toolLoop(rounds, loopFixture),
    (adapter, text) => checkText(adapter, `W2 telemetry rounds=${rounds}`, text, loopFixture.text),
    1e3 / rounds,
  );
  for (const [telemetry, adapter] of loops)
    add(report, 'W2', { rounds, telemetry }, 'us-per-round', w2.get(adapter));
  report.note(
    'W1/W2 telemetry: off = no OpenTelemetryAdvisor; noop = OpenTelemetryAdvisor over the API without an SDK; on = the SDK with in-memory exporters',
  );
}

function add(
  report: Report,
  workload: 'W1' | 'W2',
  params: Record<string, number | string>,
  metric: 'ns-per-chunk' | 'us-per-round',
  samples: number[] | undefined,
): void {
  if (samples === undefined || samples.length === 0) return;
  report.addRow({ workload, params, framework: 'rx-advisors', metric, ...quartiles(samples) });
}
