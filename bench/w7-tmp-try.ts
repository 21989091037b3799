import { measureSseServer, startSseClients } from './workloads/w7-sse-run.js';
import { stopBenchProcess } from './workloads/w7-processes.js';
async function main() {
  const clients = startSseClients();
  const n = Number(process.argv[2] ?? 100);
  for (const f of (process.argv[3] ?? 'floor-http,rx-advisors,ai-sdk').split(',')) {
    const r = await measureSseServer(clients, f, {
      n,
      deltas: 200,
      interval: Math.max(10, n / 50),
      ramp: 1000,
      warmup: { n: 100, interval: 5 },
      limitMs: 180000,
    });
    console.log(f, JSON.stringify(r));
  }
  await stopBenchProcess(clients);
}
void main();
