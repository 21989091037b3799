// W7's server process (bench/workloads/w7-sse-server.ts forks it, one per framework and
// run): serves the answers of one framework's adapter on loopback and measures itself.
//   node --expose-gc --import tsx bench/w7-sse-server.ts --framework=rx-advisors
// Messages (IPC): in `run` {n, interval, deltas, parkAt?}; out `ready` {port}, `armed`
// (baseline taken: the clients may connect), `done` {cpuMs, heapBytes, rssBytes, served}.
import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setPriority } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { w7Adapter } from './adapters/w7-adapters.js';
import { PacedTicker } from './adapters/w7-paced-ticker.js';

export interface W7RunMessage {
  type: 'run';
  n: number;
  interval: number;
  deltas: number;
  /** Park every stream after this many deltas to measure memory with all N open. */
  parkAt?: number;
}
export type W7ServerReport =
  | { type: 'ready'; port: number }
  | { type: 'armed' }
  | {
      type: 'done';
      /** Process CPU (user + system, all threads) from `armed` to the last response closed, the forced GC excluded. */
      cpuMs: number;
      /** heapUsed / RSS with every stream open and parked, after GC, minus the baseline. */
      heapBytes: number;
      rssBytes: number;
      served: number;
    };

const gc = (globalThis as { gc?: () => void }).gc;
function collect(): void {
  gc?.();
  gc?.();
}
const cpuMs = (): number => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};
const send = (message: W7ServerReport): void => {
  process.send?.(message);
};

// W7_PRIORITY=-10: run this process at that scheduling priority (a shared, loaded machine
// otherwise starves it; see docs/performance.md, W7). Only with the rights to raise it.
const priority = process.env['W7_PRIORITY'];
if (priority !== undefined && priority !== '') setPriority(Number(priority));

function main(): void {
  const framework = process.argv.find((a) => a.startsWith('--framework='))?.slice(12) ?? '';
  const adapter = w7Adapter(framework);
  let handle: RequestListener = (_req, res) => res.writeHead(503).end();
  const server = createServer((req, res) => handle(req, res));
  // No request timeout for long streams; a backlog for thousands of connections at once.
  server.requestTimeout = 0;
  server.headersTimeout = 0;
  server.listen({ host: '127.0.0.1', port: 0, backlog: 8192 }, () => {
    send({ type: 'ready', port: (server.address() as AddressInfo).port });
  });
  process.on('message', (message: W7RunMessage | { type: 'stop' }) => {
    if (message.type === 'stop') {
      server.close();
      server.closeAllConnections();
      process.disconnect();
      return;
    }
    const { n, interval, deltas, parkAt } = message;
    let served = 0;
    let heapBytes = 0;
    let rssBytes = 0;
    let gcMs = 0;
    collect();
    const base = process.memoryUsage();
    const ticker = new PacedTicker({
      interval,
      deltas,
      ...(parkAt === undefined
        ? {}
        : {
            parkAt,
            onPark: (parked) => {
              if (parked !== n) return;
              // Every stream is open and parked: let the last writes leave, then measure.
              setTimeout(() => {
                const before = cpuMs();
                collect();
                const now = process.memoryUsage();
                heapBytes = now.heapUsed - base.heapUsed;
                rssBytes = now.rss - base.rss;
                gcMs += cpuMs() - before;
                ticker.resume();
              }, 100);
            },
          }),
    });
    const listener = adapter.handler(ticker);
    const start = cpuMs();
    handle = (req, res) => {
      res.once('close', () => {
        if (++served < n) return;
        const cpu = cpuMs() - start - gcMs;
        ticker.close();
        send({ type: 'done', cpuMs: cpu, heapBytes, rssBytes, served });
      });
      listener(req, res);
    };
    if (process.env['W7_DEBUG'] !== undefined) {
      const loop = monitorEventLoopDelay({ resolution: 5 });
      loop.enable();
      let last = cpuMs();
      const timer = setInterval(() => {
        const cpu = cpuMs();
        console.error(
          `  server: ${ticker.active} active, loop delay p50 ${(loop.percentile(50) / 1e6).toFixed(1)} max ${(loop.max / 1e6).toFixed(1)} ms, cpu ${(cpu - last).toFixed(0)} ms/s`,
        );
        last = cpu;
        loop.reset();
        if (ticker.active === 0 && served >= n) clearInterval(timer);
      }, 1000);
    }
    send({ type: 'armed' });
  });
  process.once('disconnect', () => process.exit(0));
}

main();
