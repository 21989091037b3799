import { loadavg } from 'node:os';
import { W7_ADAPTERS } from '../adapters/w7-adapters.js';
import type { SseServerAdapter } from '../adapters/w7-sse-adapter.js';
import { wantsFramework } from '../harness/frameworks.js';
import type { Report } from '../harness/report.js';
import { quartiles } from '../harness/stats.js';
import type { Framework, Metric } from '../harness/types.js';
import { quickConfig, type BenchConfig } from './config.js';
import { stopBenchProcess } from './w7-processes.js';
import {
  measureSseServer,
  startSseClients,
  type SseRunPlan,
  type SseRunResult,
} from './w7-sse-run.js';

/** One size of W7: N answers, their pace, and samples per framework. */
interface W7Size {
  n: number;
  /** ms between two deltas of an answer: N / 50 (≥ 10), so ≤ 50,000 deltas/s in all. */
  interval: number;
  samples: (framework: Framework) => number;
}

const DELTAS = 200;

/**
 * W7's command-line options (read from `npm run bench -- …`, so bench/run.ts stays as is):
 * `--w7-limit-min=<m>` the longest a run may take (default 20; a run past it is noted and
 * skipped, the other rows are kept), `--w7-peer=<all|once|none>` how often the AI SDK is
 * sampled (default `once` past N = 100: its 0.25–0.5 ms of CPU per delta is minutes a run),
 * `--w7-sizes=100,1000` a subset of N.
 */
export interface W7Options {
  limitMs: number;
  peer: 'all' | 'once' | 'none';
  sizes: readonly number[] | undefined;
}

/**
 * Reads {@link W7Options} from `args`.
 * @param args The bench's arguments.
 * @returns The options.
 */
export function w7Options(args: readonly string[]): W7Options {
  const value = (name: string): string | undefined =>
    args.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3);
  const minutes = Number(value('w7-limit-min') ?? 20);
  if (!(minutes > 0)) throw new Error('W7: --w7-limit-min must be a positive number');
  const peer = value('w7-peer') ?? 'once';
  if (peer !== 'all' && peer !== 'once' && peer !== 'none')
    throw new Error('W7: --w7-peer must be all, once or none');
  const sizes = value('w7-sizes')?.split(',').map(Number);
  return { limitMs: minutes * 60_000, peer, sizes };
}

/**
 * The AI SDK at N = 5,000 (1,000,000 deltas: 4–8 minutes of CPU on a quiet machine, more
 * than 20 minutes on a loaded one) only with `W7_AI_SDK_5000=1` or `--w7-peer=all`.
 */
function sizesFor(options: W7Options): readonly W7Size[] {
  const peer = (n: number, own: number) => (f: Framework) => {
    if (f !== 'ai-sdk') return own;
    if (options.peer === 'none') return 0;
    if (options.peer === 'all') return own;
    if (n >= 5000) return process.env['W7_AI_SDK_5000'] === '1' ? 1 : 0;
    return n > 100 ? 1 : own;
  };
  const all: W7Size[] = [
    { n: 100, interval: 10, samples: peer(100, 3) },
    { n: 1000, interval: 20, samples: peer(1000, 3) },
    { n: 5000, interval: 100, samples: peer(5000, 2) },
  ];
  return options.sizes === undefined ? all : all.filter((s) => options.sizes!.includes(s.n));
}
const quick: readonly W7Size[] = [{ n: 20, interval: 10, samples: () => 1 }];

const METRICS: readonly [Metric, (r: SseRunResult) => number][] = [
  ['us-cpu-per-chunk', (r) => r.cpuUsPerChunk],
  ['heap-kb-per-stream', (r) => r.heapKbPerStream],
  ['rss-kb-per-stream', (r) => r.rssKbPerStream],
  ['ms-latency-p50', (r) => r.p50],
  ['ms-latency-p99', (r) => r.p99],
];

function plan(size: W7Size, deltas: number, limitMs: number): SseRunPlan {
  return {
    n: size.n,
    deltas,
    interval: size.interval,
    ramp: 1000,
    warmup: { n: Math.min(size.n, 200), interval: 5 },
    // A server that cannot keep up (the AI SDK at N ≥ 1,000 on a shared machine) takes minutes.
    limitMs,
  };
}

/**
 * W7, the SSE server end to end (`npm run bench -- --only=W7`): one server process per
 * framework and run serves N concurrent answers of 200 text deltas each over loopback
 * HTTP (the AI SDK UI message stream), read by clients in another process. Rows per N and
 * framework: server CPU per delivered delta, heap and RSS per open answer, and the delta
 * latency p50 / p99 (model due → client received). Runs are interleaved (sample 1 of each
 * framework, then sample 2, the first framework rotating).
 */
export async function runW7(config: BenchConfig, report: Report): Promise<void> {
  const options = w7Options(process.argv.slice(2));
  const sizes = config === quickConfig ? quick : sizesFor(options);
  const deltas = config === quickConfig ? 20 : DELTAS;
  let clients = startSseClients();
  try {
    for (const size of sizes) {
      const results = new Map<SseServerAdapter, SseRunResult[]>(W7_ADAPTERS.map((a) => [a, []]));
      const failed = new Map<SseServerAdapter, string>();
      const runs = Math.max(...W7_ADAPTERS.map((a) => size.samples(a.framework)));
      for (let run = 0; run < runs; run++) {
        for (let k = 0; k < W7_ADAPTERS.length; k++) {
          const adapter = W7_ADAPTERS[(run + k) % W7_ADAPTERS.length];
          if (run >= size.samples(adapter.framework) || failed.has(adapter)) continue;
          if (!wantsFramework(adapter.framework)) continue;
          const at = plan(size, deltas, options.limitMs);
          try {
            const result = await measureSseServer(clients, adapter.framework, at);
            console.error(
              `  W7 n=${size.n} ${adapter.framework}: ${JSON.stringify(result)} (load ${loadavg()[0].toFixed(1)})`,
            );
            results.get(adapter)!.push(result);
          } catch (error) {
            // A run past its limit (or broken) costs its framework this size, not the
            // other rows; the client process may be mid-run, so it starts afresh.
            const why = error instanceof Error ? error.message : String(error);
            failed.set(adapter, `${why} (load ${loadavg()[0].toFixed(1)})`);
            console.error(`  W7 n=${size.n} ${adapter.framework}: FAILED ${why}`);
            await stopBenchProcess(clients);
            clients = startSseClients();
          }
        }
      }
      const params = { streams: size.n, deltas, intervalMs: size.interval };
      for (const [adapter, values] of results) {
        const failure = failed.get(adapter);
        if (failure !== undefined) report.note(`W7 N=${size.n}: ${adapter.framework} ${failure}`);
        if (values.length === 0) {
          if (failure === undefined)
            report.note(
              `W7 N=${size.n}: ${adapter.framework} not run (--w7-peer, bench/workloads/w7-sse-server.ts)`,
            );
          continue;
        }
        for (const [metric, pick] of METRICS) {
          report.addRow({
            workload: 'W7',
            params,
            framework: adapter.framework,
            metric,
            ...quartiles(values.map(pick)),
          });
        }
      }
      const client = [...results.values()].flat().map((r) => r.clientCpuUsPerChunk);
      report.note(
        `W7 N=${size.n}: the client process used ${quartiles(client).median} µs CPU per delta (median over all runs); load average ${loadavg()[0].toFixed(1)} at the end`,
      );
      noteRatio(report, size.n, results);
    }
    report.note(`W7 servers: ${W7_ADAPTERS.map((a) => `${a.framework} = ${a.label}`).join('; ')}`);
  } finally {
    await stopBenchProcess(clients);
  }
}

/** The ratio the issue asks about: rx-advisors ÷ floor-http server CPU per delta, same N. */
function noteRatio(
  report: Report,
  n: number,
  results: ReadonlyMap<SseServerAdapter, SseRunResult[]>,
): void {
  const median = (framework: Framework): number | undefined => {
    const values = [...results].find(([a]) => a.framework === framework)?.[1] ?? [];
    return values.length === 0 ? undefined : quartiles(values.map((r) => r.cpuUsPerChunk)).median;
  };
  const ours = median('rx-advisors');
  const floor = median('floor-http');
  if (ours !== undefined && floor !== undefined)
    report.note(
      `W7 N=${n}: server CPU per delta rx-advisors ÷ floor-http = ${(ours / floor).toFixed(2)}×`,
    );
}
