// Telemetry cost per tool round, by hand (`npm run bench -- --only=OTEL` is the reported
// number): W2 (20 rounds) with telemetry off, with the SDK on, and the SDK floor — the same
// spans and metric records made directly on the SDK, no rx-advisors — interleaved, wall-clock
// per round, min / median over the samples. Profile the `on` variant alone with
//   npm run build && TSX_TSCONFIG_PATH=bench/tsconfig.bench.json node --cpu-prof \
//     --cpu-prof-dir=bench/profiles --import tsx bench/profile-telemetry.ts on
import { ChatClient, ToolCallingAdvisor, type Advisor } from 'rx-advisors';
import { OpenTelemetryAdvisor } from 'rx-advisors/otel';
import { collectText, noopTool } from './adapters/rx-advisors.js';
import { BenchChatModel } from './harness/bench-chat-model.js';
import { roundOf, textChunks, toolRoundChunks } from './harness/chunks.js';
import { textFixture } from './harness/fixtures.js';
const now = (): number => performance.now();
import { sdkFloorRound, telemetrySdk } from './workloads/telemetry-sdk.js';

const ROUNDS = 20;
const fixture = textFixture(20);
const chunks = textChunks(fixture);

function loop(advisors: Advisor[]): () => Promise<string> {
  const client = ChatClient.builder(
    new BenchChatModel({
      script: (_call, request) => {
        const round = roundOf(request);
        return round <= ROUNDS ? toolRoundChunks(round) : chunks;
      },
    }),
  )
    .defaultAdvisors(...advisors, new ToolCallingAdvisor({ maxRounds: ROUNDS + 1 }))
    .defaultTools(noopTool)
    .build();
  return () => collectText(client.prompt('Hi').stream().content());
}

async function main(): Promise<void> {
  const only = process.argv[2];
  const sdk = telemetrySdk();
  const floorSdk = telemetrySdk();
  const variants: Record<string, () => Promise<unknown>> = {
    off: loop([]),
    on: async () => {
      const text = await onLoop();
      sdk.spans.reset();
      return text;
    },
    floor: () => {
      for (let round = 1; round <= ROUNDS; round++) sdkFloorRound(floorSdk, round);
      sdkFloorRound(floorSdk, ROUNDS + 1, false);
      floorSdk.spans.reset();
      return Promise.resolve();
    },
  };
  const onLoop = loop([
    new OpenTelemetryAdvisor({
      tracerProvider: sdk.tracerProvider,
      meterProvider: sdk.meterProvider,
    }),
  ]);
  const names = only === undefined ? Object.keys(variants) : [only];
  const samples = new Map<string, number[]>(names.map((name) => [name, []]));
  for (let i = 0; i < 400; i++) {
    for (const name of names) {
      const run = variants[name];
      const start = now();
      for (let k = 0; k < 10; k++) await run();
      if (i >= 100) samples.get(name)!.push(((now() - start) * 1e3) / 10 / ROUNDS);
    }
  }
  for (const [name, list] of samples) {
    list.sort((a, b) => a - b);
    const at = (q: number): string => list[Math.floor(q * (list.length - 1))].toFixed(2);
    console.log(
      `${name.padEnd(6)} µs per round: min ${at(0)} p25 ${at(0.25)} median ${at(0.5)} p75 ${at(0.75)}`,
    );
  }
}

void main();
