// SSE load across two processes through Redis (issue 18 point 6, docs/performance.md "SSE
// load"): N streams split over two instance processes sharing one Redis; every stream runs
// its model on the instance that started it (20 deltas/s, 40 deltas), its client reads 5
// events there and drops, then resumes on the other instance with Last-Event-ID 5.
// Reports, per process, its Redis connections (CLIENT LIST by client name) and heap per
// stream, and overall the chunk latency of live frames (model emission after the resume →
// frame on the other instance; the replayed backlog is not latency) and
// how many streams ended complete (every id after 5 once, in order, to the end).
//   node --expose-gc --import tsx bench/sse-two-instances.ts   (N=1000 by default)
import { spawn } from 'node:child_process';
import { createClient, type RedisClientType } from 'redis';
import { concat, defer, ignoreElements, interval, map, of, take, timer } from 'rxjs';
import type { ChatChunk } from '../lib/core/chat-chunk.js';
import { RedisResumableStreams } from '../lib/sse/redis/index.js';
import { redisPlan } from '../spec/support/servers/store-servers.js';

const STREAMS = Number(process.env['N'] ?? 1000);
const DELTAS = 40;
const EVERY = 50;
/** How long after its start a stream is resumed on the other instance (5 deltas take 250 ms). */
const RESUME_AFTER = 700;

interface WorkerReport {
  instance: number;
  produced: number;
  resumed: number;
  complete: number;
  broken: number;
  /** Resumes tried again because the stream was not there yet (a busy machine). */
  retries: number;
  heapKbPerStream: number;
  latencies: number[];
}

async function connect(url: string, name: string): Promise<RedisClientType> {
  const client: RedisClientType = createClient({ url, name });
  client.on('error', () => undefined);
  await client.connect();
  return client;
}

/** One instance: runs the streams `s % 2 === index`, resumes the others. */
async function worker(url: string, index: number, epoch: number): Promise<WorkerReport> {
  const client = await connect(url, `bench-instance-${index}`);
  const streams = new RedisResumableStreams({ client, keyPrefix: 'load2:' });
  (globalThis as { gc?: () => void }).gc?.();
  const heap0 = process.memoryUsage().heapUsed;
  let peakHeap = heap0;
  const sampler = setInterval(() => {
    peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
  }, 100);
  const report: WorkerReport = {
    instance: index,
    produced: 0,
    resumed: 0,
    complete: 0,
    broken: 0,
    retries: 0,
    heapKbPerStream: 0,
    latencies: [],
  };
  const waits: Promise<void>[] = [];
  for (let s = 0; s < STREAMS; s++) {
    const key = { owner: `u${s}`, streamId: `s${s}` };
    const startAt = epoch + s * 2;
    if (s % 2 === index) {
      report.produced++;
      const model$ = interval(EVERY).pipe(
        take(DELTAS),
        map((i): ChatChunk => ({ type: 'text-delta', text: `${Date.now()}|${i}` })),
      );
      // The client reads 5 events here and drops; the model goes on for the other instance.
      const chunks$ = concat(model$, of<ChatChunk>({ type: 'finish', reason: 'stop' }));
      concat(
        timer(Math.max(0, startAt - Date.now())).pipe(ignoreElements()),
        defer(() => streams.start(key, chunks$, { heartbeat: false }).pipe(take(5))),
      ).subscribe({ error: () => undefined });
      continue;
    }
    report.resumed++;
    waits.push(
      new Promise<void>((resolve) => {
        let last = 5;
        let ok = true;
        let resumedAt = Infinity;
        const end = (good: boolean): void => {
          report.retries += tries - 1;
          if (good) report.complete++;
          else report.broken++;
          resolve();
        };
        let tries = 0;
        // A client resumes once it saw event 5 on the other instance; on a busy machine the
        // stream may not be there yet at RESUME_AFTER (not found, or 'ahead'): try again.
        const attempt = (delay: number): void => {
          tries++;
          concat(
            timer(delay).pipe(ignoreElements()),
            defer(() => {
              resumedAt = Date.now();
              return streams.resume(key, { lastEventId: '5', heartbeat: false });
            }),
          ).subscribe({
            next: (frame) => {
              const id = Number(/^id: (\d+)/m.exec(frame)?.[1] ?? NaN);
              if (!Number.isNaN(id)) {
                if (id !== last + 1) ok = false;
                last = id;
              }
              const sent = /"text":"(\d+)\|/.exec(frame);
              // Live frames only: the ones emitted before the resume are replayed, not late.
              if (sent && Number(sent[1]) >= resumedAt) {
                report.latencies.push(Date.now() - Number(sent[1]));
              }
            },
            complete: () => {
              if (last === 5 && tries < 100) return attempt(100);
              if (process.env['DEBUG_BENCH'] && !(ok && last >= DELTAS)) console.error(s, last, ok);
              end(ok && last >= DELTAS);
            },
            error: (error: unknown) => {
              if (last === 5 && /ahead/.test(String(error)) && tries < 100) return attempt(100);
              if (process.env['DEBUG_BENCH']) console.error(s, last, String(error));
              end(false);
            },
          });
        };
        attempt(Math.max(0, startAt + RESUME_AFTER - Date.now()));
      }),
    );
  }
  await Promise.all(waits);
  clearInterval(sampler);
  // Closing ends the streams this instance still runs: wait until the other one read them.
  const allProduced = epoch + STREAMS * 2 + DELTAS * EVERY + RESUME_AFTER + 5000;
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, allProduced - Date.now())));
  report.heapKbPerStream = Math.round(((peakHeap - heap0) / (STREAMS / 2) / 1024) * 10) / 10;
  await streams.close();
  await client.quit();
  return report;
}

function runWorker(url: string, index: number, epoch: number): Promise<WorkerReport> {
  const child = spawn(
    process.execPath,
    ['--expose-gc', '--import', 'tsx', process.argv[1] ?? '', '--worker'],
    {
      env: { ...process.env, REDIS_URL: url, INSTANCE: String(index), EPOCH: String(epoch) },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  let out = '';
  child.stdout.on('data', (data: Buffer) => (out += data.toString()));
  return new Promise((resolve, reject) =>
    child.once('exit', (code) =>
      code === 0 ? resolve(JSON.parse(out) as WorkerReport) : reject(new Error(`worker ${code}`)),
    ),
  );
}

async function main(): Promise<void> {
  const server = await redisPlan().start();
  const probe = await connect(server.url, 'bench-probe');
  const connections = [0, 0];
  const sampler = setInterval(() => {
    void probe.sendCommand<string>(['CLIENT', 'LIST']).then((list) => {
      for (const i of [0, 1]) {
        const n = list.split('\n').filter((l) => l.includes(` name=bench-instance-${i} `)).length;
        connections[i] = Math.max(connections[i], n);
      }
    });
  }, 200);
  const epoch = Date.now() + 3000; // both workers loaded by then
  const reports = await Promise.all([0, 1].map((i) => runWorker(server.url, i, epoch)));
  clearInterval(sampler);
  const latencies = reports.flatMap((r) => r.latencies).sort((x, y) => x - y);
  const quantile = (p: number): number => latencies[Math.floor(p * (latencies.length - 1))];
  console.log(
    JSON.stringify({
      streams: STREAMS,
      complete: reports.reduce((n, r) => n + r.complete, 0),
      broken: reports.reduce((n, r) => n + r.broken, 0),
      perInstance: reports.map((r, i) => ({
        produced: r.produced,
        resumed: r.resumed,
        resumeRetries: r.retries,
        redisConnections: connections[i],
        heapKbPerStream: r.heapKbPerStream,
      })),
      latencyMs: { p50: quantile(0.5), p99: quantile(0.99), samples: latencies.length },
    }),
  );
  await probe.quit();
  await server.dispose();
  if (reports.some((r) => r.broken > 0 || r.complete !== r.resumed)) process.exitCode = 1;
}

if (process.argv.includes('--worker')) {
  worker(
    process.env['REDIS_URL'] ?? '',
    Number(process.env['INSTANCE']),
    Number(process.env['EPOCH']),
  ).then(
    (report) => console.log(JSON.stringify(report)),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
} else {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
