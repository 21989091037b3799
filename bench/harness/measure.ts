import { readFileSync } from 'node:fs';
import { gcTrace, printGcTrace } from './gc-trace.js';
import type { BenchAdapter } from './types.js';

/** V8's `gc()` with `--expose-gc`; the options select a minor collection (a scavenge). */
type ExposedGc = (options?: { type: 'major' | 'minor'; execution: 'sync' }) => void;
const gc: ExposedGc | undefined = (globalThis as { gc?: ExposedGc }).gc;

/** Whether `--expose-gc` is on (W3 needs it; timings use it to start every batch clean). */
export const hasGc = gc !== undefined;

/**
 * A full, forced collection (twice: the first may only schedule finalization). For memory
 * readings (W3) and one-off set-ups; never right before timing warm code: it discards the
 * optimized code that embeds the maps of objects that are dead at that moment (see
 * {@link startTimedBatch}).
 */
export function collectGarbage(): void {
  gc?.();
  gc?.();
}

/**
 * What a timed batch starts with (`BENCH_RESET`): `scavenge` (the default) collects the young
 * generation only; `full-gc` is the method of the rows saved before 2026-12-02 19:00 UTC (a
 * forced full GC, then half a batch of untimed runs), kept to reproduce them.
 */
export const timedReset: 'scavenge' | 'full-gc' =
  process.env.BENCH_RESET === 'full-gc' ? 'full-gc' : 'scavenge';

/**
 * Starts a timed batch, off the clock: a minor GC (a scavenge) collects the young garbage
 * the previous case left, so it is not collected on this case's clock. No full GC: a
 * mark-compact with no call in flight finds the maps of every per-call object dead, and V8
 * deoptimizes all the optimized code embedding them ("marking dependent code … reason: weak
 * objects"), so the next batch would time re-optimization rather than the warm code a
 * long-running server runs. A scavenge leaves maps and code alone. Whatever the batch
 * itself allocates is collected on its own clock (its scavenges, and any mark-compact its
 * promotions trigger): that cost stays counted. `BENCH_RESET=full-gc` restores the old
 * start (a forced full GC).
 */
export function startTimedBatch(): void {
  if (timedReset === 'full-gc') collectGarbage();
  else gc?.({ type: 'minor', execution: 'sync' });
}

/** How many warm-up runs and measured samples a case gets per adapter. */
export interface SamplePlan {
  warmup: number;
  samples: number;
}

/**
 * Runs `measure` for every adapter, interleaved (sample 1 of each, then sample 2 of each,
 * the starting adapter rotating), so machine drift hits all alike. Each run starts after a
 * forced GC when `forceGc` is set.
 * @param adapters The adapters.
 * @param plan Warm-up runs and samples, per adapter (a function for per-adapter plans).
 * @param measure One run; returns the sample value (it checks the text itself).
 * @param forceGc Start every run with a forced full GC (W3 needs it).
 * @returns The samples of each adapter, warm-up runs excluded.
 */
export async function interleave(
  adapters: readonly BenchAdapter[],
  plan: (adapter: BenchAdapter) => SamplePlan,
  measure: (adapter: BenchAdapter) => Promise<number>,
  forceGc = true,
): Promise<Map<BenchAdapter, number[]>> {
  const samples = new Map<BenchAdapter, number[]>(adapters.map((a) => [a, []]));
  const plans = new Map(adapters.map((a) => [a, plan(a)]));
  const runs = Math.max(...[...plans.values()].map((p) => p.warmup + p.samples));
  for (let run = 0; run < runs; run++) {
    for (let k = 0; k < adapters.length; k++) {
      const adapter = adapters[(run + k) % adapters.length];
      const { warmup, samples: count } = plans.get(adapter)!;
      // Warm-ups first, then samples: each adapter's measured runs are its last ones.
      const offset = runs - (warmup + count);
      if (run < offset) continue;
      if (forceGc) collectGarbage();
      const value = await measure(adapter);
      if (run - offset >= warmup) samples.get(adapter)!.push(value);
    }
  }
  return samples;
}

/** The shortest CPU time a timed sample may last: the thread clock ticks every few ms. */
const MIN_SAMPLE_MS = 60;

/**
 * Times `run` for every adapter, interleaved like {@link interleave}. The warm-up runs
 * also calibrate a batch size per adapter, so that each sample lasts at least ~60 ms of
 * CPU time (the main-thread clock advances in scheduler ticks); a sample is then one
 * batch, and its value `elapsed × scale / batch`.
 * @param adapters The adapters.
 * @param plan Warm-up runs (at least 1) and samples, per adapter.
 * @param run One run; resolves with the final text.
 * @param check Checks a run's text, outside the clock (flattening a 100,000-piece string
 *   to compare it would otherwise be timed): the first and last run of every batch in
 *   full, the others by length.
 * @param scale Turns ms of one run into the metric (e.g. `1e6 / n` for ns per chunk).
 * @returns The samples of each adapter.
 */
export async function interleaveTimed(
  adapters: readonly BenchAdapter[],
  plan: (adapter: BenchAdapter) => SamplePlan,
  run: (adapter: BenchAdapter) => Promise<string>,
  check: (adapter: BenchAdapter, text: string) => void,
  scale: number,
): Promise<Map<BenchAdapter, number[]>> {
  const warmupCost = new Map<BenchAdapter, number[]>(adapters.map((a) => [a, []]));
  const batch = new Map<BenchAdapter, number>();
  const withWarmup = (adapter: BenchAdapter): SamplePlan => {
    const { warmup, samples } = plan(adapter);
    return { warmup: Math.max(1, warmup), samples };
  };
  // A batch starts with a scavenge (the previous adapter's young garbage is not collected on
  // this one's clock; see startTimedBatch) and then half a batch of untimed runs (the
  // previous case ran other code through the shared functions: RxJS's, the library's);
  // single-run samples (the peers, seconds each) skip the settling.
  const samples = await interleave(
    adapters,
    withWarmup,
    async (adapter) => {
      const size = batch.get(adapter);
      if (size === undefined) {
        // Warm-up: one run, timed by the precise process clock to size the batches.
        const start = processCpuNow();
        const text = await run(adapter);
        check(adapter, text);
        const costs = warmupCost.get(adapter)!;
        costs.push(processCpuNow() - start);
        if (costs.length === withWarmup(adapter).warmup) {
          const typical = [...costs].sort((a, b) => a - b)[costs.length >> 1];
          batch.set(adapter, Math.min(1000, Math.max(1, Math.ceil(MIN_SAMPLE_MS / typical))));
        }
        return Number.NaN;
      }
      // Off the clock: the previous adapter's young garbage, then half a batch of untimed runs.
      startTimedBatch();
      for (let i = 0; i < (size > 1 ? Math.ceil(size / 2) : 0); i++) await run(adapter);
      // Only the first and last texts are kept for the full check after the clock (keeping
      // a batch of 100,000-piece ropes alive would bill their promotion to the cheapest
      // adapters); every other run must match their length.
      let first = '';
      let last = '';
      let badLength = -1;
      const wallStart = performance.now();
      const start = cpuNow();
      for (let i = 0; i < size; i++) {
        last = await run(adapter);
        if (i === 0) first = last;
        else if (last.length !== first.length) badLength = last.length;
      }
      const elapsed = cpuNow() - start;
      gcTrace?.window(traceLabel(adapter), wallStart, performance.now(), (elapsed * scale) / size);
      check(adapter, first);
      check(adapter, last);
      if (badLength >= 0) check(adapter, `(a run of ${badLength} characters)`);
      return (elapsed * scale) / size;
    },
    false,
  );
  await printGcTrace();
  return samples;
}

/** A case's name in the GC trace: the framework, and a bench case's own short label. */
function traceLabel(adapter: BenchAdapter): string {
  const label = adapter.passThroughLabel;
  return label.length <= 30 ? `${adapter.framework} ${label}` : adapter.framework;
}

/** The process CPU time in ms (all threads; precise). */
export function processCpuNow(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/**
 * Throws unless an adapter produced the expected text: a broken adapter fails loudly.
 * @param adapter Who produced it.
 * @param what The workload.
 * @param actual The text it produced.
 * @param expected The text it had to produce.
 */
export function checkText(
  adapter: BenchAdapter,
  what: string,
  actual: string,
  expected: string,
): void {
  if (actual !== expected) {
    throw new Error(
      `${adapter.framework} ${what}: final text mismatch (got ${actual.length} chars starting ` +
        `${JSON.stringify(actual.slice(0, 40))}, expected ${expected.length} chars)`,
    );
  }
}

const SCHEDSTAT = `/proc/${process.pid}/task/${process.pid}/schedstat`;
const hasSchedstat = ((): boolean => {
  try {
    readFileSync(SCHEDSTAT, 'utf8');
    return true;
  } catch {
    return false;
  }
})();

/** Which clock {@link cpuNow} reads, for the report. */
export const cpuClock = hasSchedstat
  ? 'main-thread CPU time (Linux schedstat; samples batched to at least 60 ms)'
  : 'process CPU time (process.cpuUsage)';

/**
 * CPU time in ms: the main thread's own (Linux `schedstat`), else the process's. Timed
 * workloads use it rather than the wall clock: the bench machine is shared (other jobs
 * take the cores), and the main thread's CPU time is what a run costs whatever runs
 * beside it, without the background compiler and GC threads still busy with the
 * previous adapter's work.
 */
export function cpuNow(): number {
  if (hasSchedstat) {
    const text = readFileSync(SCHEDSTAT, 'utf8');
    return Number(text.slice(0, text.indexOf(' '))) / 1e6;
  }
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}
