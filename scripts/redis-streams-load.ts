// A quick load run of RedisResumableStreams (docs/scaling.md, "Sizing"): N streams start on
// instance A at 20 deltas/s (starts spread over 2 ms each), each client drops after 5
// events and resumes on instance B with Last-Event-ID 5. Reports completeness, Redis
// connections (all clients: 1 probe + 3 per instance), heap per stream and chunk latency
// (model emission → frame on B). Both instances share this process: a first figure, not
// the two-process bench of issue 18 point 6.
//   node --expose-gc --import tsx scripts/redis-streams-load.ts   (N=1000 by default)
import { createClient, type RedisClientType } from 'redis';
import { concat, defer, ignoreElements, interval, map, of, take, timer } from 'rxjs';
import type { ChatChunk } from '../lib/core/chat-chunk';
import { RedisResumableStreams } from '../lib/sse/redis/index';
import { redisPlan } from '../spec/support/servers/store-servers';

const STREAMS = Number(process.env['N'] ?? 1000);
const DELTAS = 40;
const EVERY = 50;

async function connect(url: string): Promise<RedisClientType> {
  const client: RedisClientType = createClient({ url });
  client.on('error', () => undefined);
  await client.connect();
  return client;
}

async function main(): Promise<void> {
  const server = await redisPlan().start();
  const [ca, cb, probe] = await Promise.all([1, 2, 3].map(() => connect(server.url)));
  const a = new RedisResumableStreams({ client: ca, keyPrefix: 'load:' });
  const b = new RedisResumableStreams({ client: cb, keyPrefix: 'load:' });
  (globalThis as { gc?: () => void }).gc?.();
  const heap0 = process.memoryUsage().heapUsed;
  const latencies: number[] = [];
  let complete = 0;
  let broken = 0;
  let finished = 0;
  const done = new Promise<void>((resolve) => {
    const end = (ok: boolean) => {
      if (ok) complete++;
      else broken++;
      if (++finished === STREAMS) resolve();
    };
    for (let s = 0; s < STREAMS; s++) {
      const key = { owner: `u${s}`, streamId: `s${s}` };
      const model$ = concat(
        timer(s * 2).pipe(ignoreElements()),
        interval(EVERY).pipe(
          take(DELTAS),
          map((i): ChatChunk => ({ type: 'text-delta', text: `${Date.now()}|${i}` })),
        ),
        of<ChatChunk>({ type: 'finish', reason: 'stop' }),
      );
      let last = 5;
      let ok = true;
      // The client reads 5 events on A and drops; then it resumes on B after event 5.
      concat(
        a.start(key, model$, { heartbeat: false }).pipe(take(5), ignoreElements()),
        defer(() => b.resume(key, { lastEventId: '5', heartbeat: false })),
      ).subscribe({
        next: (frame) => {
          const id = Number(/^id: (\d+)/m.exec(frame)?.[1] ?? NaN);
          if (!Number.isNaN(id)) {
            if (id !== last + 1) ok = false;
            last = id;
          }
          const sent = /"text":"(\d+)\|/.exec(frame);
          if (sent) latencies.push(Date.now() - Number(sent[1]));
        },
        complete: () => end(ok && last >= DELTAS),
        error: () => end(false),
      });
    }
  });
  let peakHeap = 0;
  let connections = 0;
  const sampler = setInterval(() => {
    peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
    void probe.sendCommand<string>(['CLIENT', 'LIST']).then((list) => {
      connections = Math.max(connections, list.trim().split('\n').length);
    });
  }, 200);
  await done;
  clearInterval(sampler);
  latencies.sort((x, y) => x - y);
  const quantile = (p: number) => latencies[Math.floor(p * (latencies.length - 1))];
  console.log(
    JSON.stringify({
      streams: STREAMS,
      complete,
      broken,
      redisConnectionsAllClients: connections,
      heapKbPerStream: Math.round(((peakHeap - heap0) / STREAMS / 1024) * 10) / 10,
      latencyMs: { p50: quantile(0.5), p99: quantile(0.99), samples: latencies.length },
    }),
  );
  await Promise.all([a.close(), b.close()]);
  await Promise.all([ca, cb, probe].map((client) => client.quit()));
  await server.dispose();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
