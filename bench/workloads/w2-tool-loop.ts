import { textFixture } from '../harness/fixtures.js';
import { checkText, interleaveTimed } from '../harness/measure.js';
import { NotMeasurableError } from '../harness/not-measurable-error.js';
import type { Report } from '../harness/report.js';
import type { BenchAdapter } from '../harness/types.js';
import type { BenchConfig } from './config.js';
import { isPeer } from './w1-stream.js';

/**
 * W2 tool loop: K rounds of one trivial tool call, then a final text, streaming. µs per
 * round (the whole call divided by K).
 */
export async function runW2(
  adapters: readonly BenchAdapter[],
  config: BenchConfig,
  report: Report,
): Promise<void> {
  const fixture = textFixture(20);
  const usable = await measurable(adapters, fixture, report);
  for (const rounds of config.w2Rounds) {
    const samples = await interleaveTimed(
      usable,
      (adapter) => (isPeer(adapter) ? config.w2PeerPlan : config.w2Plan),
      (adapter) => adapter.toolLoop(rounds, fixture),
      (adapter, text) => checkText(adapter, `W2 rounds=${rounds}`, text, fixture.text),
      1e3 / rounds,
    );
    report.add('W2', { rounds }, 'us-per-round', samples);
  }
  for (const adapter of usable) report.note(`W2 ${adapter.framework}: ${adapter.toolLoopLabel}`);
}

async function measurable(
  adapters: readonly BenchAdapter[],
  fixture: ReturnType<typeof textFixture>,
  report: Report,
): Promise<BenchAdapter[]> {
  const usable: BenchAdapter[] = [];
  for (const adapter of adapters) {
    try {
      checkText(adapter, 'W2 probe', await adapter.toolLoop(2, fixture), fixture.text);
      usable.push(adapter);
    } catch (error) {
      if (!(error instanceof NotMeasurableError)) throw error;
      report.note(`W2 ${adapter.framework}: not measurable yet: ${error.message}`);
    }
  }
  return usable;
}
