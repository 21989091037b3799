import { ChatClient, ToolCallingAdvisor, type Advisor } from 'rx-advisors';
import { OpenTelemetryAdvisor } from 'rx-advisors/otel';
import {
  asyncNoopTool,
  collectText,
  noopTool,
  passThroughAdvisors,
} from '../adapters/rx-advisors.js';
import { BenchChatModel } from '../harness/bench-chat-model.js';
import { roundOf, textChunks, toolRoundChunks } from '../harness/chunks.js';
import { textFixture } from '../harness/fixtures.js';
import { checkText, interleaveTimed } from '../harness/measure.js';
import { quartiles } from '../harness/stats.js';
import type { Report } from '../harness/report.js';
import type { BenchAdapter, TextFixture } from '../harness/types.js';
import type { BenchConfig } from './config.js';
import {
  floorInLoop,
  sdkFloorRound,
  telemetrySdk,
  userTelemetrySdk,
  type TelemetrySdk,
} from './telemetry-sdk.js';

type Telemetry = 'off' | 'noop' | 'on';

/** The plain user's set-up of issue 32: SDK defaults (`userTelemetrySdk`), metrics on. */
interface UserSetUp {
  /** Pass-through advisors of W1 (the user's W1 has none). */
  readonly advisors: number;
  /** The async zod tool of W2 instead of the synchronous one. */
  readonly asyncTool: boolean;
}

const USER: UserSetUp = { advisors: 0, asyncTool: true };

/** W1 and W2 of rx-advisors, as three variants: no telemetry, the API's no-op, the SDK. */
function variant(
  telemetry: Telemetry,
  fixture: TextFixture,
  rounds: number,
  setUp: UserSetUp | undefined = undefined,
): BenchAdapter {
  const otel = setUp === undefined ? telemetrySdk() : userTelemetrySdk();
  const passThroughs = setUp?.advisors ?? 5;
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
    .defaultAdvisors(...advisors(), ...passThroughAdvisors(passThroughs))
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
    .defaultTools(setUp?.asyncTool === true ? asyncNoopTool : noopTool)
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

/** A floor adapter of the SDK alone: the one path it times, the others refused. */
function sdkFloorAdapter(
  path: { stream: () => string } | { toolLoop: () => string },
): BenchAdapter {
  const refused = () => Promise.reject(new Error('not part of the floor'));
  return {
    framework: 'rx-advisors',
    passThroughLabel: 'telemetry sdk-floor',
    toolLoopLabel: 'telemetry sdk-floor',
    stream: 'stream' in path ? () => Promise.resolve(path.stream()) : refused,
    toolLoop: 'toolLoop' in path ? () => Promise.resolve(path.toolLoop()) : refused,
    parked: refused,
    firstChunk: refused,
  };
}

/**
 * The SDK alone, as a tool-loop adapter: per call, what `OpenTelemetryAdvisor` asks of the
 * SDK for `rounds` tool rounds and the final answer (a call span, a `chat` span and an
 * `execute_tool` span per round, their metric records, the rounds record), made directly
 * on the SDK with no rx-advisors and no stream. The floor under the `on` row: on − off −
 * floor is the advisor's own cost.
 */
function sdkFloor(rounds: number, text: string, otel: TelemetrySdk = telemetrySdk()): BenchAdapter {
  const tracer = otel.tracerProvider.getTracer('bench-floor');
  const roundsRecord = otel.meterProvider.getMeter('bench-floor').createHistogram('rounds');
  const call = (): string => {
    const span = tracer.startSpan('invoke_workflow', {
      attributes: { 'gen_ai.operation.name': 'invoke_workflow' },
    });
    for (let round = 1; round <= rounds; round++) sdkFloorRound(otel, round);
    sdkFloorRound(otel, rounds + 1, false);
    span.setAttributes({ 'rx_advisors.rounds': rounds + 1 });
    span.end();
    roundsRecord.record(rounds + 1, { 'gen_ai.operation.name': 'chat' });
    otel.spans.reset();
    return text;
  };
  return sdkFloorAdapter({ toolLoop: call });
}

/**
 * The SDK alone for W1, as a pass-through adapter (`telemetry: 'sdk-floor'`, `sdk: 'user'`):
 * per call, what `OpenTelemetryAdvisor` asks of the SDK for one model call without a tool
 * (the call span, the `chat` span, its four records and the rounds record), made directly
 * on the SDK in a tight loop, with no stream. Per chunk of n, it is the SDK's per-call work
 * spread over the chunks; sdk-floor-in-loop − off − this is what the same work costs more
 * inside the loop.
 */
function w1SdkFloor(text: string): BenchAdapter {
  const otel = userTelemetrySdk();
  const floor = floorInLoop(otel);
  const call = (): string => {
    const end = floor.start();
    floor.round(1, false);
    end(1);
    otel.spans.reset();
    return text;
  };
  return sdkFloorAdapter({ stream: call });
}

/**
 * The SDK floor inside the loop (`telemetry: 'sdk-floor-in-loop'`): telemetry off, and the
 * floor's spans and records made per call and per model call from the model's script
 * ({@link floorInLoop}), on the user's set-up. W1: one round without a tool per call.
 */
function sdkFloorInLoop(fixture: TextFixture, rounds: number): BenchAdapter {
  const otel = userTelemetrySdk();
  const floor = floorInLoop(otel);
  const chunks = textChunks(fixture);
  const stream = ChatClient.builder(
    new BenchChatModel({
      script: () => {
        floor.round(1, false);
        return chunks;
      },
    }),
  ).build();
  const loop = ChatClient.builder(
    new BenchChatModel({
      script: (_call, request) => {
        const round = roundOf(request);
        floor.round(round, round <= rounds);
        return round <= rounds ? toolRoundChunks(round) : chunks;
      },
    }),
  )
    .defaultAdvisors(new ToolCallingAdvisor({ maxRounds: rounds + 1 }))
    .defaultTools(asyncNoopTool)
    .build();
  const timed = async (client: ChatClient, modelCalls: number): Promise<string> => {
    const end = floor.start();
    const result = await collectText(client.prompt('Hi').stream().content());
    end(modelCalls);
    otel.spans.reset();
    return result;
  };
  return {
    framework: 'rx-advisors',
    passThroughLabel: 'telemetry sdk-floor-in-loop',
    toolLoopLabel: 'telemetry sdk-floor-in-loop',
    stream: () => timed(stream, 1),
    toolLoop: () => timed(loop, rounds + 1),
    parked: () => Promise.reject(new Error('not part of the floor')),
    firstChunk: () => Promise.reject(new Error('not part of the floor')),
  };
}

/**
 * Telemetry overhead (`npm run bench -- --only=OTEL`): W1 (every `w1Sizes` n, 5
 * pass-through advisors; ns per chunk: at n = 100,000 the per-call spans and records are
 * spread thin, so its on − off is the per-chunk cost, and n = 10,000 adds the per-call
 * cost) and W2 (20 tool rounds; µs per round) through rx-advisors with no telemetry, with
 * `OpenTelemetryAdvisor` over the API's no-op providers, and over the real SDK (in-memory
 * span and metric exporters); W2 also times the SDK floor (the same spans and records made
 * on the SDK directly). Rows carry `telemetry: off | noop | on | sdk-floor`.
 */
export async function runTelemetry(config: BenchConfig, report: Report): Promise<void> {
  const rounds = config.w2Rounds[0] ?? 20;
  for (const n of config.w1Sizes) {
    const fixture = textFixture(n);
    const streams = (['off', 'noop', 'on'] as const).map(
      (t) => [t, variant(t, fixture, rounds)] as const,
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
  }
  const loopFixture = textFixture(20);
  const loops = [
    ...(['off', 'noop', 'on'] as const).map((t) => [t, variant(t, loopFixture, rounds)] as const),
    ['sdk-floor', sdkFloor(rounds, loopFixture.text)] as const,
  ];
  const w2 = await interleaveTimed(
    loops.map(([, adapter]) => adapter),
    () => config.w2Plan,
    (adapter) => adapter.toolLoop(rounds, loopFixture),
    (adapter, text) => checkText(adapter, `W2 telemetry rounds=${rounds}`, text, loopFixture.text),
    1e3 / rounds,
  );
  for (const [telemetry, adapter] of loops)
    add(report, 'W2', { rounds, telemetry }, 'us-per-round', w2.get(adapter));
  await runUserSetUp(config, report);
  report.note(
    "W1/W2 telemetry: off = no OpenTelemetryAdvisor; noop = OpenTelemetryAdvisor over the API without an SDK; on = the SDK with in-memory exporters; sdk-floor = the same spans and metric records made on the SDK directly (on − off − sdk-floor = the advisor's own cost); sdk=user: issue 32's plain set-up (SDK defaults, metrics on, W1 with no advisor, W2 with the async zod tool); sdk-floor-in-loop = telemetry off with the floor's spans and records made inside the loop (on − it = the advisor's own cost, collections included)",
  );
}

/**
 * Issue 32's outside benchmark, reproduced (rows with `sdk: 'user'`): the SDK with its
 * defaults (`userTelemetrySdk`), W1 with no advisor at n = 1,000 and 10,000 (off / on / the
 * SDK floor in the loop / the SDK floor alone), W2 with the async zod tool at every `w2Rounds`
 * (off / on / the SDK floor alone and in the loop, on the same set-up).
 */
async function runUserSetUp(config: BenchConfig, report: Report): Promise<void> {
  for (const n of [1_000, ...config.w1Sizes.filter((size) => size <= 10_000)]) {
    const fixture = textFixture(n);
    const streams = [
      ...(['off', 'on'] as const).map((t) => [t, variant(t, fixture, 1, USER)] as const),
      ['sdk-floor-in-loop', sdkFloorInLoop(fixture, 1)] as const,
      ['sdk-floor', w1SdkFloor(fixture.text)] as const,
    ];
    const w1 = await interleaveTimed(
      streams.map(([, adapter]) => adapter),
      () => config.w1Plan(n),
      (adapter) => adapter.stream(fixture, 0),
      (adapter, text) => checkText(adapter, `W1 user telemetry n=${n}`, text, fixture.text),
      1e6 / n,
    );
    for (const [telemetry, adapter] of streams)
      add(
        report,
        'W1',
        { n, advisors: 0, telemetry, sdk: 'user' },
        'ns-per-chunk',
        w1.get(adapter),
      );
  }
  const loopFixture = textFixture(20);
  for (const rounds of config.w2Rounds) {
    const loops = [
      ...(['off', 'on'] as const).map((t) => [t, variant(t, loopFixture, rounds, USER)] as const),
      ['sdk-floor', sdkFloor(rounds, loopFixture.text, userTelemetrySdk())] as const,
      ['sdk-floor-in-loop', sdkFloorInLoop(loopFixture, rounds)] as const,
    ];
    const w2 = await interleaveTimed(
      loops.map(([, adapter]) => adapter),
      () => config.w2Plan,
      (adapter) => adapter.toolLoop(rounds, loopFixture),
      (adapter, text) =>
        checkText(adapter, `W2 user telemetry rounds=${rounds}`, text, loopFixture.text),
      1e3 / rounds,
    );
    for (const [telemetry, adapter] of loops)
      add(
        report,
        'W2',
        { rounds, tool: 'async', telemetry, sdk: 'user' },
        'us-per-round',
        w2.get(adapter),
      );
  }
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
