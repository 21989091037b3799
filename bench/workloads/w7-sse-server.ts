import { loadavg } from 'node:os';
import { W7_ADAPTERS } from '../adapters/w7-adapters.js';
import type { SseServerAdapter } from '../adapters/w7-sse-adapter.js';
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
 * The AI SDK takes 0.25–0.5 ms of CPU per delta: one sample at N = 1,000 (minutes), none at
 * N = 5,000, where its 1,000,000 deltas are 4–8 minutes of CPU on a quiet machine and its
 * run did not end within 20 minutes on a loaded one (W7_AI_SDK_5000=1 runs it anyway).
 */
const aiSdkAt5000 = process.env['W7_AI_SDK_5000'] === '1' ? 1 : 0;
const full: readonly W7Size[] = [
  { n: 100, interval: 10, samples: () => 3 },
  { n: 1000, interval: 20, samples: (f) => (f === 'ai-sdk' ? 1 : 3) },
  { n: 5000, interval: 100, samples: (f) => (f === 'ai-sdk' ? aiSdkAt5000 : 2) },
];
const quick: readonly W7Size[] = [{ n: 20, interval: 10, samples: () => 1 }];

const METRICS: readonly [Metric, (r: SseRunResult) => number][] = [
  ['us-cpu-per-chunk', (r) => r.cpuUsPerChunk],
  ['heap-kb-per-stream', (r) => r.heapKbPerStream],
  ['rss-kb-per-stream', (r) => r.rssKbPerStream],
  ['ms-latency-p50', (r) => r.p50],
  ['ms-latency-p99', (r) => r.p99],
];

function plan(size: W7Size, deltas: number): SseRunPlan {
  return {
    n: size.n,
    deltas,
    interval: size.interval,
    ramp: 1000,
    warmup: { n: Math.min(size.n, 200), interval: 5 },
    // A server that cannot keep up (the AI SDK at N = 5,000 on a shared machine) takes minutes.
    limitMs: 1_200_000,
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
  const sizes = config === quickConfig ? quick : full;
  const deltas = config === quickConfig ? 20 : DELTAS;
  const clients = startSseClients();
  try {
    for (const size of sizes) {
      const results = new Map<SseServerAdapter, SseRunResult[]>(W7_ADAPTERS.map((a) => [a, []]));
      const runs = Math.max(...W7_ADAPTERS.map((a) => size.samples(a.framework)));
      for (let run = 0; run < runs; run++) {
        for (let k = 0; k < W7_ADAPTERS.length; k++) {
          const adapter = W7_ADAPTERS[(run + k) % W7_ADAPTERS.length];
          if (run >= size.samples(adapter.framework)) continue;
          const result = await measureSseServer(clients, adapter.framework, plan(size, deltas));
          console.error(
            `  W7 n=${size.n} ${adapter.framework}: ${JSON.stringify(result)} (load ${loadavg()[0].toFixed(1)})`,
          );
          results.get(adapter)!.push(result);
        }
      }
      const params = { streams: size.n, deltas, intervalMs: size.interval };
      for (const [adapter, values] of results) {
        if (values.length === 0) {
          report.note(
            `W7 N=${size.n}: ${adapter.framework} not run (see bench/workloads/w7-sse-server.ts)`,
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
    }
    report.note(`W7 servers: ${W7_ADAPTERS.map((a) => `${a.framework} = ${a.label}`).join('; ')}`);
  } finally {
    await stopBenchProcess(clients);
  }
}
