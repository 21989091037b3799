import type { BenchAdapter } from './types.js';

const gc: (() => void) | undefined = (globalThis as { gc?: () => void }).gc;

/** Whether `--expose-gc` is on (W3 needs it; timings use it to start every run clean). */
export const hasGc = gc !== undefined;

/** A full, forced collection (twice: the first may only schedule finalization). */
export function collectGarbage(): void {
  gc?.();
  gc?.();
}

/** How many warm-up runs and measured samples a case gets per adapter. */
export interface SamplePlan {
  warmup: number;
  samples: number;
}

/**
 * Runs `measure` for every adapter, interleaved (sample 1 of each, then sample 2 of each,
 * the starting adapter rotating), so machine drift hits all alike. Each run starts after a
 * forced GC, so one adapter's garbage is not collected on another's clock.
 * @param adapters The adapters.
 * @param plan Warm-up runs and samples, per adapter (a function for per-adapter plans).
 * @param measure One run; returns the sample value (it checks the text itself).
 * @returns The samples of each adapter, warm-up runs excluded.
 */
export async function interleave(
  adapters: readonly BenchAdapter[],
  plan: (adapter: BenchAdapter) => SamplePlan,
  measure: (adapter: BenchAdapter) => Promise<number>,
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
      collectGarbage();
      const value = await measure(adapter);
      if (run - offset >= warmup) samples.get(adapter)!.push(value);
    }
  }
  return samples;
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
