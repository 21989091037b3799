import { createGate, textFixture } from '../harness/fixtures.js';
import { checkText, collectGarbage, hasGc, interleave } from '../harness/measure.js';
import type { Report } from '../harness/report.js';
import type { BenchAdapter } from '../harness/types.js';
import type { BenchConfig } from './config.js';

/** Lets every parked stream's consumer drain what reached it. */
async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}

/**
 * W3 memory: C concurrent streams of 200 chunks, all parked after 100; heap (after a
 * forced GC) and RSS per in-flight stream, in KB.
 */
export async function runW3(
  adapters: readonly BenchAdapter[],
  config: BenchConfig,
  report: Report,
): Promise<void> {
  if (!hasGc) {
    report.note('W3: not measured: run with node --expose-gc (npm run bench does)');
    return;
  }
  const { streams, chunks } = config.w3;
  const fixture = textFixture(chunks);
  const parkAt = chunks / 2;
  const rss = new Map<BenchAdapter, number[]>(adapters.map((a) => [a, []]));
  const heap = await interleave(
    adapters,
    () => config.w3Plan,
    async (adapter) => {
      collectGarbage();
      const before = process.memoryUsage();
      const { gate, parked, open } = createGate(streams);
      const texts: Promise<string>[] = [];
      for (let i = 0; i < streams; i++) texts.push(adapter.parked(fixture, parkAt, gate));
      await parked;
      await settle();
      adapter.beforeHeapSnapshot?.(gate);
      collectGarbage();
      const after = process.memoryUsage();
      open();
      for (const text of await Promise.all(texts)) checkText(adapter, 'W3', text, fixture.text);
      rss.get(adapter)!.push((after.rss - before.rss) / 1024 / streams);
      return (after.heapUsed - before.heapUsed) / 1024 / streams;
    },
  );
  // interleave() keeps only the measured samples; RSS was pushed for warm-ups too.
  for (const [adapter, values] of rss) values.splice(0, values.length - heap.get(adapter)!.length);
  report.add('W3', { streams, chunks }, 'heap-kb-per-stream', heap);
  report.add('W3', { streams, chunks }, 'rss-kb-per-stream', rss);
}
