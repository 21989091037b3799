import { textFixture } from '../harness/fixtures.js';
import { checkText, interleaveTimed, type SamplePlan } from '../harness/measure.js';
import type { Report } from '../harness/report.js';
import type { BenchAdapter } from '../harness/types.js';
import type { BenchConfig } from './config.js';

/**
 * W1 stream passthrough: a model streams N text deltas then usage, consumed to the final
 * text, through 0 and 5 pass-through advisors. ns per chunk (per text delta).
 */
export async function runW1(
  adapters: readonly BenchAdapter[],
  config: BenchConfig,
  report: Report,
): Promise<void> {
  for (const n of config.w1Sizes) {
    const fixture = textFixture(n);
    for (const advisors of [0, 5]) {
      const plan = (adapter: BenchAdapter): SamplePlan =>
        isPeer(adapter) ? config.w1PeerPlan(n) : config.w1Plan(n);
      const samples = await interleaveTimed(
        adapters,
        plan,
        (adapter) => adapter.stream(fixture, advisors),
        (adapter, text) => checkText(adapter, `W1 n=${n} advisors=${advisors}`, text, fixture.text),
        1e6 / n,
      );
      report.add('W1', { n, advisors }, 'ns-per-chunk', samples);
    }
  }
  for (const adapter of adapters)
    report.note(`W1 ${adapter.framework}: 5 pass-throughs = ${adapter.passThroughLabel}`);
}

/** The peers are orders of magnitude slower and get fewer samples. */
export function isPeer(adapter: BenchAdapter): boolean {
  return adapter.framework === 'ai-sdk' || adapter.framework === 'langchain';
}
