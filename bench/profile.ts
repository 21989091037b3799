// Profiles one rx-advisors workload, on the built package as `npm run bench` measures it:
//   npm run build && TSX_TSCONFIG_PATH=bench/tsconfig.bench.json \
//     node --cpu-prof --cpu-prof-dir=bench/profiles --import tsx bench/profile.ts w1 [advisors]
// Prints the mean CPU cost over the second half of the runs (the first half warms up). The
// half is timed as a whole: the process CPU clock ticks too coarsely for one short run.
import { rxAdvisorsAdapter } from './adapters/rx-advisors.js';
import { w5Adapter } from './adapters/w5-full-chain.js';
import { jsonFixture, textFixture } from './harness/fixtures.js';
import { cpuNow } from './harness/measure.js';

async function main(): Promise<void> {
  const [workload = 'w1', arg = '5'] = process.argv.slice(2);
  const repeat = Number(process.env['REPEAT'] ?? 40);
  const runs: Record<string, [() => Promise<unknown>, number, string]> = {
    w1: [stream(textFixture(100_000), Number(arg)), 100_000, 'ns/chunk'],
    w2: [loop(Number(arg === '5' ? 100 : arg)), Number(arg === '5' ? 100 : arg), 'ns/round'],
    // W2 with the asynchronous zod tool (rows `tool: 'async-zod'`).
    w2a: [
      loop(Number(arg === '5' ? 100 : arg), 'async'),
      Number(arg === '5' ? 100 : arg),
      'ns/round',
    ],
    w4: [first(), 1, 'ns/call'],
    w5: [full(jsonFixture(10_000)), 10_000, 'ns/chunk'],
    w5r: [fullLoop(20), 20, 'ns/round'],
  };
  const entry = runs[workload];
  if (entry === undefined) throw new Error(`unknown workload ${workload}`);
  const [run, units, unit] = entry;
  const warmup = repeat >> 1;
  for (let i = 0; i < warmup; i++) await run();
  const start = cpuNow();
  for (let i = warmup; i < repeat; i++) await run();
  const mean = ((cpuNow() - start) * 1e6) / units / (repeat - warmup);
  console.log(
    `${mean.toFixed(0)} ${unit} (main-thread CPU, mean of the last ${repeat - warmup} runs)`,
  );
}

function stream(fixture: ReturnType<typeof textFixture>, advisors: number) {
  return async () => check(await rxAdvisorsAdapter.stream(fixture, advisors), fixture.text);
}
function loop(rounds: number, kind: 'sync' | 'async' = 'sync') {
  const fixture = textFixture(20);
  return async () => check(await rxAdvisorsAdapter.toolLoop(rounds, fixture, kind), fixture.text);
}
function first() {
  const fixture = textFixture(10);
  return () => rxAdvisorsAdapter.firstChunk(fixture);
}
function full(fixture: ReturnType<typeof jsonFixture>) {
  return async () => check(await w5Adapter.stream(fixture), fixture.text);
}
function fullLoop(rounds: number) {
  const fixture = jsonFixture(20);
  return async () => check(await w5Adapter.toolLoop(rounds, fixture), fixture.text);
}
function check(actual: string, expected: string): void {
  if (actual !== expected) throw new Error('text mismatch');
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
