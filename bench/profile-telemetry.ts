// Telemetry cost by hand (`npm run bench -- --only=OTEL` is the reported number),
// interleaved, process CPU time per batch, min / median over the samples.
//   suite `bench` (default): W2 (20 rounds, sync tool) off / on / floor, the bench's SDK.
//   suite `user`: the plain user's set-up of issue 32 (userTelemetrySdk: SDK defaults,
//     metrics on): W2 with the async zod tool (ROUNDS, default 20) off / on / floor, and
//     W1 with no advisor (N chunks, default 10,000) off / on; `*-floorloop`: the SDK floor
//     made inside the loop, telemetry off (on − floorloop = the advisor's own cost);
//     `w1-floor`: the W1 call's spans and records alone, in a tight loop; `w1-floorbeside`:
//     that, then a W1 call with telemetry off. CLOCK=thread: main-thread CPU time (batches of
//     ~40 ms are near its tick; prefer `npm run bench` for sub-ns differences).
// Run (after `npm run build`):
//   TSX_TSCONFIG_PATH=bench/tsconfig.bench.json node --import tsx bench/profile-telemetry.ts user
// Profile one variant alone: add `--cpu-prof --cpu-prof-dir=bench/profiles` and the
// variant's name as the second argument (`user w2-on`).
import { advisor, ChatClient, ToolCallingAdvisor, type Advisor } from 'rx-advisors';
import { CallInterceptors, type ToolCallInterceptor } from 'rx-advisors/advisor-api';
import { GuardrailsAdvisor, wordGuardrail } from 'rx-advisors/guardrails';
import { OpenTelemetryAdvisor } from 'rx-advisors/otel';
import { asyncNoopTool, collectText, noopTool } from './adapters/rx-advisors.js';
import { BenchChatModel } from './harness/bench-chat-model.js';
import { roundOf, textChunks, toolRoundChunks } from './harness/chunks.js';
import { textFixture } from './harness/fixtures.js';
import type { Session } from 'node:inspector';
import { cpuNow, processCpuNow } from './harness/measure.js';
import {
  floorInLoop,
  sdkFloorRound,
  telemetrySdk,
  userTelemetrySdk,
  type TelemetrySdk,
} from './workloads/telemetry-sdk.js';

const suite = process.argv[2] ?? 'bench';
const only = process.argv[3];
const ROUNDS = Number(process.env['ROUNDS'] ?? 20);
const N = Number(process.env['N'] ?? 10_000);
const KEEP = process.env['BENCH_OTEL_KEEP_SPANS'] === '1';
const fixture = textFixture(20);
const chunks = textChunks(fixture);

function otel(sdk: TelemetrySdk): Advisor {
  return new OpenTelemetryAdvisor({
    tracerProvider: sdk.tracerProvider,
    meterProvider: sdk.meterProvider,
  });
}

function loop(advisors: Advisor[], async: boolean): () => Promise<string> {
  const client = ChatClient.builder(
    new BenchChatModel({
      script: (_call, request) => {
        const round = roundOf(request);
        return round <= ROUNDS ? toolRoundChunks(round) : chunks;
      },
    }),
  )
    .defaultAdvisors(...advisors, new ToolCallingAdvisor({ maxRounds: ROUNDS + 1 }))
    .defaultTools(async ? asyncNoopTool : noopTool)
    .build();
  return () => collectText(client.prompt('Hi').stream().content());
}

/** The SDK floor made inside the loop (telemetry off): W2 with `rounds`, or W1 when undefined. */
function floorLoop(sdk: TelemetrySdk, rounds: number | undefined): () => Promise<unknown> {
  const floor = floorInLoop(sdk);
  const w1 = textChunks(textFixture(N));
  const client = ChatClient.builder(
    new BenchChatModel({
      script: (_call, request) => {
        if (rounds === undefined) {
          floor.round(1, false);
          return w1;
        }
        const round = roundOf(request);
        floor.round(round, round <= rounds);
        return round <= rounds ? toolRoundChunks(round) : chunks;
      },
    }),
  );
  const built = (
    rounds === undefined
      ? client
      : client
          .defaultAdvisors(new ToolCallingAdvisor({ maxRounds: rounds + 1 }))
          .defaultTools(asyncNoopTool)
  ).build();
  return async () => {
    const end = floor.start();
    const text = await collectText(built.prompt('Hi').stream().content());
    end(rounds === undefined ? 1 : rounds + 1);
    if (!KEEP) sdk.spans.reset();
    return text;
  };
}

function stream(advisors: Advisor[]): () => Promise<string> {
  const w1 = textChunks(textFixture(N));
  const client = ChatClient.builder(new BenchChatModel({ script: () => w1 }))
    .defaultAdvisors(...advisors)
    .build();
  return () => collectText(client.prompt('Hi').stream().content());
}

const drained = (sdk: TelemetrySdk, run: () => Promise<unknown>) => async (): Promise<unknown> => {
  const result = await run();
  if (!KEEP) sdk.spans.reset();
  return result;
};

function floor(sdk: TelemetrySdk): () => Promise<unknown> {
  return () => {
    for (let round = 1; round <= ROUNDS; round++) sdkFloorRound(sdk, round);
    sdkFloorRound(sdk, ROUNDS + 1, false);
    if (!KEEP) sdk.spans.reset();
    return Promise.resolve();
  };
}

/** The SDK floor of one W1 call (the call span, one `chat` round without a tool, the rounds record), nothing else. */
function w1Floor(sdk: TelemetrySdk): () => Promise<unknown> {
  const floor = floorInLoop(sdk);
  return () => {
    const end = floor.start();
    floor.round(1, false);
    end(1);
    if (!KEEP) sdk.spans.reset();
    return Promise.resolve();
  };
}

/** {@link w1Floor}, then a W1 call with telemetry off (its own client). */
function w1FloorBeside(sdk: TelemetrySdk): () => Promise<unknown> {
  const floor = w1Floor(sdk);
  const off = stream([]);
  return async () => {
    await floor();
    return off();
  };
}

/** name → [run, scale of one run's ms into the reported unit, unit]. */
type Variant = [() => Promise<unknown>, number, string];

/** An advisor that registers `interceptor` as a tool-call interceptor (or nothing) per call. */
function registering(interceptor: ToolCallInterceptor | undefined): Advisor {
  const key = Symbol('bench-interceptor');
  return advisor({
    name: 'Registering',
    before: (request) => {
      if (interceptor !== undefined)
        CallInterceptors.of(request.context).onToolCall(key, interceptor);
      return request;
    },
  });
}

function variants(): Record<string, Variant> {
  if (suite === 'interceptor') {
    // Issue 32 / docs/guardrails.md: what registering a trivial tool-call interceptor costs,
    // W4-like (10 chunks, no tool) and W2 (async tool, ROUNDS rounds).
    const passExecute: ToolCallInterceptor = { execute: (_invocation, proceed) => proceed() };
    const passCall: ToolCallInterceptor = {
      intercept: (invocation, proceed) => proceed(invocation.call),
    };
    const words = wordGuardrail({ name: 'w', words: ['zebra'] });
    const w4 = (advisors: Advisor[]) => {
      const ten = textChunks(textFixture(10));
      const client = ChatClient.builder(new BenchChatModel({ script: () => ten }))
        .defaultAdvisors(...advisors)
        .build();
      return () => collectText(client.prompt('Hi').stream().content());
    };
    return {
      'w4-plain': [w4([registering(undefined)]), 1e3, 'µs/call'],
      'w4-execute': [w4([registering(passExecute)]), 1e3, 'µs/call'],
      'w4-guard': [w4([new GuardrailsAdvisor({ input: [words] })]), 1e3, 'µs/call'],
      'w2-plain': [loop([registering(undefined)], true), 1e3 / ROUNDS, 'µs/round'],
      'w2-execute': [loop([registering(passExecute)], true), 1e3 / ROUNDS, 'µs/round'],
      'w2-intercept': [loop([registering(passCall)], true), 1e3 / ROUNDS, 'µs/round'],
    };
  }
  if (suite === 'user') {
    const sdk = userTelemetrySdk();
    const floorSdk = userTelemetrySdk();
    const streamSdk = userTelemetrySdk();
    return {
      'w2-off': [loop([], true), 1e3 / ROUNDS, 'µs/round'],
      'w2-on': [drained(sdk, loop([otel(sdk)], true)), 1e3 / ROUNDS, 'µs/round'],
      'w2-floor': [floor(floorSdk), 1e3 / ROUNDS, 'µs/round'],
      'w2-floorloop': [floorLoop(userTelemetrySdk(), ROUNDS), 1e3 / ROUNDS, 'µs/round'],
      'w1-off': [stream([]), 1e6 / N, 'ns/chunk'],
      'w1-on': [drained(streamSdk, stream([otel(streamSdk)])), 1e6 / N, 'ns/chunk'],
      'w1-floorloop': [floorLoop(userTelemetrySdk(), undefined), 1e6 / N, 'ns/chunk'],
      // The W1 call's spans and records alone, in a tight loop (no stream): per chunk of N.
      'w1-floor': [w1Floor(userTelemetrySdk()), 1e6 / N, 'ns/chunk'],
      // The same, then the stream with telemetry off: the SDK work beside the stream, not in it.
      'w1-floorbeside': [w1FloorBeside(userTelemetrySdk()), 1e6 / N, 'ns/chunk'],
    };
  }
  const sdk = telemetrySdk();
  const floorSdk = telemetrySdk();
  return {
    off: [loop([], false), 1e3 / ROUNDS, 'µs/round'],
    on: [drained(sdk, loop([otel(sdk)], false)), 1e3 / ROUNDS, 'µs/round'],
    floor: [floor(floorSdk), 1e3 / ROUNDS, 'µs/round'],
  };
}

/** `POLLUTE=1`: first run the bench suite's telemetry set-ups (5 pass-throughs, sync tool), as `npm run bench` does before the user rows. */
async function pollute(): Promise<void> {
  const sdk = telemetrySdk();
  const passThroughs = await import('./adapters/rx-advisors.js');
  const w1 = textChunks(textFixture(1000));
  const client = ChatClient.builder(new BenchChatModel({ script: () => w1 }))
    .defaultAdvisors(otel(sdk), ...passThroughs.passThroughAdvisors(5))
    .build();
  const w2 = drained(sdk, loop([otel(sdk)], false));
  for (let i = 0; i < 300; i++) {
    await collectText(client.prompt('Hi').stream().content());
    await w2();
  }
}

/**
 * `GC=1` with one variant: the garbage collections of 2,000 runs (after 500 warm-up runs),
 * per run: minor (scavenge) and major (mark-compact) counts and their time.
 */
async function gcStats(
  run: () => Promise<unknown>,
  unitsPerRun: number,
  unit: string,
): Promise<void> {
  const { PerformanceObserver, constants } = await import('node:perf_hooks');
  for (let i = 0; i < 500; i++) await run();
  const seen = { minor: 0, major: 0, ms: 0 };
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const kind = (entry as unknown as { detail?: { kind?: number } }).detail?.kind;
      if (kind === constants.NODE_PERFORMANCE_GC_MINOR) seen.minor++;
      else seen.major++;
      seen.ms += entry.duration;
    }
  });
  observer.observe({ entryTypes: ['gc'] });
  const runs = Number(process.env['RUNS'] ?? 2000);
  // With node --trace-gc-nvp: the collections after this line are the measured runs'.
  if (process.env['MARK'] === '1') console.log('--- measured runs ---');
  // HEAP_PROFILE=file: where the measured runs allocate (every sampled allocation, the
  // collected ones too), as a .heapprofile for DevTools or a script.
  const heapProfile = process.env['HEAP_PROFILE'];
  const session = heapProfile === undefined ? undefined : await startHeapSampling();
  const start = processCpuNow();
  for (let i = 0; i < runs; i++) await run();
  const cpu = processCpuNow() - start;
  if (session !== undefined && heapProfile !== undefined) {
    await stopHeapSampling(session, heapProfile);
  }
  await new Promise((resolve) => setTimeout(resolve, 50));
  observer.disconnect();
  const per = (value: number): string => ((value / runs) * unitsPerRun).toFixed(3);
  console.log(
    `per ${unit}: minor GCs ${per(seen.minor)}, major GCs ${per(seen.major)}, GC ${per(seen.ms * 1000)} µs of ${per(cpu * 1000)} µs CPU`,
  );
}

async function startHeapSampling(): Promise<Session> {
  const { Session } = await import('node:inspector');
  const session = new Session();
  session.connect();
  const post = (method: string, params?: object): Promise<unknown> =>
    new Promise((resolve, reject) =>
      session.post(method, params, (error, result) => (error ? reject(error) : resolve(result))),
    );
  await post('HeapProfiler.enable');
  await post('HeapProfiler.startSampling', {
    samplingInterval: 256,
    includeObjectsCollectedByMajorGC: true,
    // HEAP_PROMOTED=1: only what outlived a young-generation collection (promoted, or still alive).
    includeObjectsCollectedByMinorGC: process.env['HEAP_PROMOTED'] !== '1',
  });
  return session;
}

async function stopHeapSampling(session: Session, file: string): Promise<void> {
  const { writeFileSync } = await import('node:fs');
  const result = await new Promise<{ profile: unknown }>((resolve, reject) =>
    session.post('HeapProfiler.stopSampling', (error, value) =>
      error ? reject(error) : resolve(value),
    ),
  );
  writeFileSync(file, JSON.stringify(result.profile));
  session.disconnect();
}

async function main(): Promise<void> {
  if (process.env['GC'] === '1' && only !== undefined) {
    const [run, scale, unit] = variants()[only];
    // scale turns one run's ms into the unit; per unit = per run × scale / 1000 (ms → µs/ns).
    await gcStats(run, scale / 1000, unit.split('/')[1] ?? unit);
    return;
  }
  if (process.env['POLLUTE'] === '1') await pollute();
  const all = variants();
  // A comma-separated list runs those variants only (`user w1-off,w1-on,w1-floorloop`).
  const names = only === undefined ? Object.keys(all) : only.split(',');
  const samples = new Map<string, number[]>(names.map((name) => [name, []]));
  const batch = new Map<string, number>();
  for (const name of names) {
    const [run] = all[name];
    const start = processCpuNow();
    for (let k = 0; k < 20; k++) await run();
    batch.set(name, Math.max(1, Math.ceil((40 * 20) / (processCpuNow() - start + 1e-3))));
  }
  const total = Number(process.env['SAMPLES'] ?? 40);
  // CLOCK=thread: the main thread's CPU time, as `npm run bench` (default: the process's).
  const clock = process.env['CLOCK'] === 'thread' ? cpuNow : processCpuNow;
  for (let i = 0; i < total + 10; i++) {
    for (const name of names) {
      const [run, scale] = all[name];
      const size = batch.get(name)!;
      // FORCE_GC=1 (with --expose-gc): a full collection before each batch, as npm run bench does.
      if (process.env['FORCE_GC'] === '1') (globalThis as { gc?: () => void }).gc?.();
      const start = clock();
      for (let k = 0; k < size; k++) await run();
      if (i >= 10) samples.get(name)!.push(((clock() - start) * scale) / size);
    }
  }
  for (const [name, list] of samples) {
    list.sort((a, b) => a - b);
    const at = (q: number): string => list[Math.floor(q * (list.length - 1))].toFixed(2);
    console.log(
      `${name.padEnd(9)} ${all[name][2]}: min ${at(0)} p25 ${at(0.25)} median ${at(0.5)} p75 ${at(0.75)}`,
    );
  }
}

void main();
