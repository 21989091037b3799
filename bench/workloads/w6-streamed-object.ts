import { isDeepStrictEqual } from 'node:util';
import {
  w6AiSdkAdapter,
  w6RxAdvisorsAdapter,
  type W6Adapter,
  type W6Result,
} from '../adapters/w6-streamed-object.js';
import { cpuNow, interleave, processCpuNow, startTimedBatch } from '../harness/measure.js';
import type { SamplePlan } from '../harness/measure.js';
import { wantsFramework } from '../harness/frameworks.js';
import type { Report } from '../harness/report.js';
import type { BenchAdapter } from '../harness/types.js';
import { quickConfig, type BenchConfig } from './config.js';
import { objectFixture, type ObjectFixture } from './w6-object-fixture.js';
import { w6PerCallSchemaAdapter } from './w6-per-call-schema.js';

/** The shortest CPU time a sample may last (the thread clock ticks every few ms). */
const MIN_SAMPLE_MS = 60;

/**
 * Throws unless a run ended with the whole answer: a broken adapter fails loudly.
 * @param adapter Who ran.
 * @param fixture The answer it streamed.
 * @param result What it saw.
 */
export function checkW6(adapter: W6Adapter, fixture: ObjectFixture, result: W6Result): void {
  if (!isDeepStrictEqual(result.final, fixture.value) || result.partials < 1) {
    throw new Error(
      `${adapter.framework} W6 ${fixture.kb} KB: the last value is not the answer ` +
        `(${result.partials} values, last ${JSON.stringify(result.final)?.slice(0, 60)})`,
    );
  }
}

/**
 * ms of CPU per answer for every adapter, interleaved like `interleaveTimed`: warm-ups
 * size a batch of at least ~60 ms; a sample is one batch after `startTimedBatch()` (a
 * scavenge, as `interleaveTimed`) and half a batch of untimed runs. The first and last
 * results of a batch are checked after the clock.
 */
async function timeAnswers(
  adapters: readonly W6Adapter[],
  plan: (adapter: W6Adapter) => SamplePlan,
  fixture: ObjectFixture,
  partials: Map<W6Adapter, number>,
): Promise<Map<BenchAdapter, number[]>> {
  const keys = adapters as unknown as BenchAdapter[];
  const of = (key: BenchAdapter): W6Adapter => key as unknown as W6Adapter;
  // Without warm-ups (the peers at 100 KB: a minute a run, warmed up by the 10 KB runs),
  // a sample is one run.
  const batch = new Map<W6Adapter, number>(
    adapters.filter((a) => plan(a).warmup === 0).map((a) => [a, 1]),
  );
  const warmupCost = new Map<W6Adapter, number[]>(adapters.map((a) => [a, []]));
  const withWarmup = (key: BenchAdapter): SamplePlan => plan(of(key));
  return interleave(
    keys,
    withWarmup,
    async (key) => {
      const adapter = of(key);
      const size = batch.get(adapter);
      if (size === undefined) {
        const start = processCpuNow();
        const result = await adapter.stream(fixture);
        const cost = processCpuNow() - start;
        checkW6(adapter, fixture, result);
        partials.set(adapter, result.partials);
        const costs = warmupCost.get(adapter)!;
        costs.push(cost);
        if (costs.length === withWarmup(key).warmup) {
          const typical = [...costs].sort((a, b) => a - b)[costs.length >> 1];
          batch.set(adapter, Math.min(1000, Math.max(1, Math.ceil(MIN_SAMPLE_MS / typical))));
        }
        return Number.NaN;
      }
      startTimedBatch();
      for (let i = 0; i < (size > 1 ? Math.ceil(size / 2) : 0); i++) await adapter.stream(fixture);
      let first: W6Result | undefined;
      let last: W6Result | undefined;
      const start = cpuNow();
      for (let i = 0; i < size; i++) {
        last = await adapter.stream(fixture);
        first ??= last;
      }
      const elapsed = cpuNow() - start;
      checkW6(adapter, fixture, first!);
      checkW6(adapter, fixture, last!);
      partials.set(adapter, last!.partials);
      return elapsed / size;
    },
    false,
  );
}

/** The peers: `@langchain/core` is a bench dependency (bench/package.json). */
async function peers(): Promise<W6Adapter[]> {
  const { w6LangChainAdapter } = await import('../adapters/w6-langchain.js');
  return [w6AiSdkAdapter, w6LangChainAdapter];
}

/**
 * W6 streamed structured output: a 1 KB, 10 KB and 100 KB JSON answer in 4-character
 * deltas, read as partial objects; CPU µs per delta and ms per answer.
 */
export async function runW6(config: BenchConfig, report: Report): Promise<void> {
  const quick = config === quickConfig;
  const sizes = quick ? [1, 10] : [1, 10, 100];
  const adapters = [w6RxAdvisorsAdapter, ...(await peers())].filter((a) =>
    wantsFramework(a.framework),
  );
  const plan =
    (kb: number) =>
    (adapter: W6Adapter): SamplePlan => {
      if (quick) return { warmup: adapter.framework === 'rx-advisors' ? 5 : 1, samples: 2 };
      if (adapter.framework === 'rx-advisors') return { warmup: 20, samples: 9 };
      if (kb <= 1) return { warmup: 3, samples: 5 };
      return kb <= 10 ? { warmup: 1, samples: 3 } : { warmup: 0, samples: 1 };
    };
  const perDelta = new Map<string, number>();
  for (const kb of sizes) {
    const fixture = objectFixture(kb);
    const partials = new Map<W6Adapter, number>();
    const ms = await timeAnswers(adapters, plan(kb), fixture, partials);
    const params = { kb, deltas: fixture.deltas.length };
    report.add('W6', params, 'ms-per-answer', ms);
    const micros = new Map(
      [...ms].map(([key, values]) => [key, values.map((v) => (v * 1000) / fixture.deltas.length)]),
    );
    report.add('W6', params, 'us-per-delta', micros);
    for (const [key, values] of micros) {
      const sorted = [...values].sort((a, b) => a - b);
      perDelta.set(`${key.framework}:${kb}`, sorted[sorted.length >> 1]);
    }
    // The user's way (issue 32): the schema literal written in the handler, one per call.
    const userMs = await timeAnswers([w6PerCallSchemaAdapter], plan(kb), fixture, partials);
    const user = { ...params, schema: 'per-call' };
    report.add('W6', user, 'ms-per-answer', userMs);
    report.add(
      'W6',
      user,
      'us-per-delta',
      new Map(
        [...userMs].map(([key, v]) => [key, v.map((x) => (x * 1000) / fixture.deltas.length)]),
      ),
    );
    report.note(
      `W6 ${kb} KB (${fixture.text.length} characters, ${fixture.deltas.length} deltas): values emitted ` +
        [...partials].map(([a, n]) => `${a.framework} ${n}`).join(', ') +
        ` (schema=per-call: ${w6PerCallSchemaAdapter.label})`,
    );
  }
  const big = sizes[sizes.length - 1];
  for (const adapter of adapters) {
    const small = perDelta.get(`${adapter.framework}:1`);
    const large = perDelta.get(`${adapter.framework}:${big}`);
    if (small !== undefined && large !== undefined) {
      report.note(
        `W6 ${adapter.framework}: per-delta cost at ${big} KB ÷ at 1 KB = ${(large / small).toFixed(2)}× (${adapter.label})`,
      );
    }
  }
}
