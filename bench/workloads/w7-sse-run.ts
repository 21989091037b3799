import type { ChildProcess } from 'node:child_process';
import type { W7ClientReport, W7ClientRun } from '../w7-sse-clients.js';
import type { W7RunMessage, W7ServerReport } from '../w7-sse-server.js';
import { forkBenchProcess, nextMessage, stopBenchProcess } from './w7-processes.js';

/** One W7 run's shape. */
export interface SseRunPlan {
  /** Concurrent answers. */
  n: number;
  /** Text deltas per answer. */
  deltas: number;
  /** Milliseconds between two deltas of an answer. */
  interval: number;
  /** Milliseconds over which the clients connect. */
  ramp: number;
  /** The warm-up run before it, in the same server process (none: `n` 0). */
  warmup: { n: number; interval: number };
  /** How long the run may take, ms. */
  limitMs: number;
}

/** What one W7 run measured on the server and in the clients. */
export interface SseRunResult {
  /** Server process CPU per delivered delta, µs. */
  cpuUsPerChunk: number;
  /** Server heap and RSS per open answer (all N open, after GC), KB. */
  heapKbPerStream: number;
  rssKbPerStream: number;
  /** Delta latency, model due → client received, ms. */
  p50: number;
  p99: number;
  max: number;
  /** The client process's CPU per delta, µs (it shares the machine with the server). */
  clientCpuUsPerChunk: number;
}

type Done = Extract<W7ServerReport, { type: 'done' }>;

/** One run of `n` answers on a server process; checks (outside any clock) every answer. */
async function runOnce(
  server: ChildProcess,
  clients: ChildProcess,
  port: number,
  n: number,
  plan: SseRunPlan,
  interval: number,
  ramp: number,
  parkAt?: number,
): Promise<{ server: Done; clients: W7ClientReport }> {
  const { deltas, limitMs } = plan;
  const armed = nextMessage(server, 'armed', limitMs);
  server.send({
    type: 'run',
    n,
    interval,
    deltas,
    ...(parkAt === undefined ? {} : { parkAt }),
  } satisfies W7RunMessage);
  await armed;
  const served = nextMessage<Done>(server, 'done', limitMs);
  const read = nextMessage<W7ClientReport>(clients, 'done', limitMs);
  clients.send({ type: 'run', port, n, deltas, ramp } satisfies W7ClientRun);
  const [serverReport, clientReport] = await Promise.all([served, read]);
  if (clientReport.problems.length > 0 || clientReport.delivered !== n * deltas) {
    throw new Error(
      `W7: ${clientReport.delivered} of ${n * deltas} deltas delivered in order; ${clientReport.problems.join('; ')}`,
    );
  }
  return { server: serverReport, clients: clientReport };
}

/**
 * One W7 measurement: a fresh server process for `framework` (so its memory is its own),
 * a warm-up run, then `plan.n` answers whose streams all park half-way for the memory
 * snapshot. The clients run in `clients`, another process.
 * @param clients The client process (bench/w7-sse-clients.ts).
 * @param framework The server adapter's framework.
 * @param plan The run.
 * @returns The measures.
 */
export async function measureSseServer(
  clients: ChildProcess,
  framework: string,
  plan: SseRunPlan,
): Promise<SseRunResult> {
  // W7_CPU_PROF=<folder>: a CPU profile of every server process (see docs/performance.md).
  const profile = process.env['W7_CPU_PROF'];
  const server = forkBenchProcess(
    'w7-sse-server.ts',
    [`--framework=${framework}`],
    profile === undefined ? [] : ['--cpu-prof', `--cpu-prof-dir=${profile}`],
  );
  try {
    const { port } = await nextMessage<Extract<W7ServerReport, { type: 'ready' }>>(
      server,
      'ready',
      60_000,
    );
    if (plan.warmup.n > 0) {
      await runOnce(server, clients, port, plan.warmup.n, plan, plan.warmup.interval, 50);
    }
    const parkAt = Math.floor(plan.deltas / 2);
    const run = await runOnce(
      server,
      clients,
      port,
      plan.n,
      plan,
      plan.interval,
      plan.ramp,
      parkAt,
    );
    const chunks = plan.n * plan.deltas;
    return {
      cpuUsPerChunk: (run.server.cpuMs * 1000) / chunks,
      heapKbPerStream: run.server.heapBytes / plan.n / 1024,
      rssKbPerStream: run.server.rssBytes / plan.n / 1024,
      p50: run.clients.p50,
      p99: run.clients.p99,
      max: run.clients.max,
      clientCpuUsPerChunk: (run.clients.cpuMs * 1000) / chunks,
    };
  } finally {
    await stopBenchProcess(server);
  }
}

/** Starts the client process. */
export function startSseClients(): ChildProcess {
  return forkBenchProcess('w7-sse-clients.ts');
}
