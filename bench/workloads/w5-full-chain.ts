import { w5Adapter, W5_ADVISORS, w5Floors, type W5Adapter } from '../adapters/w5-full-chain.js';
import { jsonFixture } from '../harness/fixtures.js';
import { checkText, interleaveTimed } from '../harness/measure.js';
import type { Report } from '../harness/report.js';
import type { BenchAdapter } from '../harness/types.js';
import type { BenchConfig } from './config.js';

/**
 * W5 the full default chain (memory, validation, tool loop, logger) against the floors:
 * ns per chunk of a streamed JSON answer, µs per tool round.
 */
export async function runW5(config: BenchConfig, report: Report): Promise<void> {
  const adapters: W5Adapter[] = [w5Adapter, ...w5Floors];
  // interleave() works on BenchAdapter keys; W5 adapters carry what it reads.
  const keys = adapters as unknown as BenchAdapter[];
  const byKey = (adapter: BenchAdapter): W5Adapter => adapter as unknown as W5Adapter;
  const { n, rounds } = config.w5;
  const big = jsonFixture(n);
  const perChunk = await interleaveTimed(
    keys,
    () => config.w5Plan,
    (adapter) => byKey(adapter).stream(big),
    (adapter, text) => checkText(adapter, 'W5 stream', text, big.text),
    1e6 / n,
  );
  report.add('W5', { n, advisors: W5_ADVISORS }, 'ns-per-chunk', perChunk);
  const small = jsonFixture(20);
  const perRound = await interleaveTimed(
    keys,
    () => config.w5Plan,
    (adapter) => byKey(adapter).toolLoop(rounds, small),
    (adapter, text) => checkText(adapter, 'W5 rounds', text, small.text),
    1e3 / rounds,
  );
  report.add('W5', { rounds, advisors: W5_ADVISORS }, 'us-per-round', perRound);
  for (const adapter of adapters) report.note(`W5 ${adapter.framework}: ${adapter.label}`);
}
