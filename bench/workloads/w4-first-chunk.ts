import { textFixture } from '../harness/fixtures.js';
import { gcTrace, printGcTrace } from '../harness/gc-trace.js';
import { interleave, startTimedBatch } from '../harness/measure.js';
import type { Report } from '../harness/report.js';
import { quantile, quartiles } from '../harness/stats.js';
import type { BenchAdapter, TextFixture } from '../harness/types.js';
import type { BenchConfig } from './config.js';

/**
 * W4 time to the first text chunk: µs from the call to its first text delta, over
 * `calls` sequential calls per sample (each call is checked for its full text).
 * The row's median, p25 and p75 are over every measured call of every sample.
 */
export async function runW4(
  adapters: readonly BenchAdapter[],
  config: BenchConfig,
  report: Report,
): Promise<void> {
  const fixture = textFixture(10);
  const { calls } = config.w4;
  const samples = await firstChunkSamples(adapters, fixture, config);
  for (const [adapter, measured] of samples) {
    if (measured.length === 0) continue;
    report.addRow({
      workload: 'W4',
      params: { calls },
      framework: adapter.framework,
      metric: 'us-to-first-chunk',
      ...quartiles(measured),
    });
  }
}

/**
 * Every measured call's µs to the first chunk, per adapter: `calls` sequential calls per
 * sample, samples interleaved across the adapters, the warm-up calls dropped (the last
 * `samples × calls` kept). Each sample starts with {@link startTimedBatch} (a scavenge, no
 * full GC). W4 and the GUARD rows use it.
 */
export async function firstChunkSamples(
  adapters: readonly BenchAdapter[],
  fixture: TextFixture,
  config: BenchConfig,
): Promise<Map<BenchAdapter, number[]>> {
  const { calls } = config.w4;
  const pooled = new Map<BenchAdapter, number[]>(adapters.map((a) => [a, []]));
  const perSample = await interleave(
    adapters,
    () => config.w4Plan,
    async (adapter) => {
      // A scavenge, not a full GC: the calls time warm code (see startTimedBatch).
      startTimedBatch();
      const values: number[] = [];
      const start = performance.now();
      for (let i = 0; i < calls; i++) values.push(await adapter.firstChunk(fixture));
      const median = quantile(values, 0.5);
      gcTrace?.window(adapter.framework, start, performance.now(), median);
      pooled.get(adapter)!.push(...values);
      return median;
    },
    false,
  );
  await printGcTrace();
  const measured = new Map<BenchAdapter, number[]>();
  for (const [adapter, values] of pooled) {
    const keep = perSample.get(adapter)!.length * calls;
    measured.set(adapter, values.slice(values.length - keep));
  }
  return measured;
}
