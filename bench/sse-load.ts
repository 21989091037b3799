// npm run bench:sse: 1,000 concurrent SSE chat streams from one process against the demo
// server running the offline model (loopback only). Not part of npm test.
//
// The server runs in a child process (this file with --serve), so its memory is measured
// alone; this process holds every stream and parses it with eventsource-parser.
// Phase 1 (memory): N slow streams are held open at once; the server's heap and RSS are
//   measured (after GC) with all N open, then every client disconnects, and the server must
//   drop back to 0 streams and near its baseline memory.
// Phase 2 (latency): N streams at a realistic pace run to the end. Every text delta carries
//   the time it left the model (same machine, same clock), so chunk latency = parse time here
//   - emission time there: the path of a chunk through the tool loop, the memory advisor,
//   SSE encoding, the socket and the parser. The server's event-loop delay is reported too,
//   since a late timer delays a chunk before it is emitted.
//
// Flags: --streams=1000 --interval=50 (ms between deltas in phase 2) --ramp=2000 (ms over
// which connections open) --limit=120 (s per phase, hard stop).
import { createParser } from 'eventsource-parser';
import { fork, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import {
  bufferCount,
  concatMap,
  filter,
  firstValueFrom,
  lastValueFrom,
  from,
  fromEvent,
  map,
  merge,
  mergeMap,
  Observable,
  Subject,
  take,
  takeUntil,
  timer,
  toArray,
} from 'rxjs';
import type { ChatChunk, ChatModel, ChatRequest } from '../lib/index.js';
import { startDemoServer, type DemoServer } from '../examples/demo/demo-server.js';
import { OfflineDemoModel } from '../examples/demo/offline-demo-model.js';

const QUESTION =
  'Who registered on 2024-05-01, 2024-05-03, 2024-06-12 or 2024-08-08, and what time is it in Tokyo, Paris, New York and Sydney?';
const STAMP = /⟦(\d+(?:\.\d+)?)⟧/;
const BATCH = 50;
const SLOW_INTERVAL = 2000;

function flag(name: string, fallback: number): number {
  const arg = process.argv.find((a) => a.startsWith(`--${name}=`));
  const value = arg === undefined ? fallback : Number(arg.slice(name.length + 3));
  if (!(value > 0)) throw new Error(`--${name} must be a positive number`);
  return value;
}

const wallClock = (): number => performance.timeOrigin + performance.now();

/** The offline model, each text delta stamped with the time it left the model. */
function stampedModel(model: ChatModel): ChatModel {
  return {
    provider: model.provider,
    stream: (req: ChatRequest) =>
      model
        .stream(req)
        .pipe(
          map((chunk): ChatChunk =>
            chunk.type === 'text-delta'
              ? { type: 'text-delta', text: `${chunk.text}⟦${wallClock()}⟧` }
              : chunk,
          ),
        ),
  };
}

interface Stats {
  type: 'stats';
  heapUsed: number;
  rss: number;
  activeStreams: number;
  loopDelayP99: number;
  loopDelayMax: number;
}
type ToServer = { type: 'stats'; gc: boolean } | { type: 'stop' };
type FromServer = { type: 'ready'; slowUrl: string; fastUrl: string } | Stats;

// ---------- the server (child process) ----------
async function serve(): Promise<void> {
  const gc = (globalThis as { gc?: () => void }).gc;
  const dirs = [
    mkdtempSync(join(tmpdir(), 'rx-sse-load-')),
    mkdtempSync(join(tmpdir(), 'rx-sse-load-')),
  ];
  const start = (interval: number, dataDir: string): Promise<DemoServer> =>
    startDemoServer({
      port: 0,
      model: stampedModel(new OfflineDemoModel({ interval, firstChunkDelay: 50 })),
      dataDir,
      // The demo keeps every answer resumable (30 s after its client left); here a client
      // that leaves is gone for good, so its stream must end at once (ttl 0), and every load
      // stream must fit in the registry.
      resume: { ttl: 0, maxStreams: 4_000 },
    });
  const slow = await start(SLOW_INTERVAL, dirs[0]);
  const fast = await start(flag('interval', 50), dirs[1]);
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  const stop = (): void => {
    void Promise.all([slow.close(), fast.close()]).then(() => {
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
      loop.disable();
      if (process.connected) process.disconnect();
    });
  };
  // A parent that dies (Ctrl-C, a kill) closes the IPC channel: stop, never linger.
  process.once('disconnect', stop);
  process.on('message', (message: ToServer) => {
    if (message.type === 'stats') {
      if (message.gc) {
        gc?.();
        gc?.();
      }
      const { heapUsed, rss } = process.memoryUsage();
      const stats: Stats = {
        type: 'stats',
        heapUsed,
        rss,
        activeStreams: slow.activeStreams + fast.activeStreams,
        loopDelayP99: loop.percentile(99) / 1e6,
        loopDelayMax: loop.max / 1e6,
      };
      loop.reset();
      process.send!(stats);
    } else {
      process.off('disconnect', stop);
      stop();
    }
  });
  process.send!({ type: 'ready', slowUrl: slow.url, fastUrl: fast.url } satisfies FromServer);
}

// ---------- the load (this process) ----------
interface StreamResult {
  done: boolean;
  firstEventMs: number;
  durationMs: number;
  latencies: number[];
}

/** One chat stream, as a cold Observable: unsubscribing disconnects it. */
function chatStream$(url: string, onFirstText?: () => void): Observable<StreamResult> {
  return new Observable<StreamResult>((subscriber) => {
    const sent = performance.now();
    const result: StreamResult = { done: false, firstEventMs: -1, durationMs: 0, latencies: [] };
    const parser = createParser({
      onEvent: (event) => {
        if (result.firstEventMs < 0) result.firstEventMs = performance.now() - sent;
        if (event.event === 'text-delta') {
          const at = wallClock();
          const stamp = STAMP.exec(event.data);
          if (stamp !== null) result.latencies.push(at - Number(stamp[1]));
          if (result.latencies.length === 1) onFirstText?.();
        } else if (event.event === 'done') result.done = true;
      },
    });
    const end = (): void => {
      result.durationMs = performance.now() - sent;
      subscriber.next(result);
      subscriber.complete();
    };
    const req = request(new URL('api/chat', url), {
      method: 'POST',
      agent: false,
      headers: { 'content-type': 'application/json' },
    });
    req.on('response', (res) => {
      res.setEncoding('utf8');
      res.on('data', (text: string) => parser.feed(text));
      res.on('end', end);
    });
    req.on('error', end);
    req.end(JSON.stringify({ message: QUESTION }));
    return () => req.destroy();
  });
}

/** Opens `count` streams in batches over `ramp` ms; completes when they end (or `stop$` fires). */
function streams$(
  url: string,
  count: number,
  ramp: number,
  stop$: Observable<unknown>,
  onFirstText?: () => void,
): Observable<StreamResult[]> {
  const pause = ramp / Math.ceil(count / BATCH);
  return from(Array.from({ length: count }, (_, i) => i)).pipe(
    bufferCount(BATCH),
    concatMap((batch, index) =>
      index === 0 ? from([batch]) : timer(pause).pipe(map(() => batch)),
    ),
    mergeMap((batch) => from(batch).pipe(mergeMap(() => chatStream$(url, onFirstText)))),
    takeUntil(stop$),
    toArray(),
  );
}

function percentile(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

async function load(): Promise<void> {
  const streams = flag('streams', 1000);
  const limitMs = flag('limit', 120) * 1000;
  const interval = flag('interval', 50);
  const ramp = flag('ramp', 2000);
  const child = fork(__filename, ['--serve', `--interval=${interval}`], {
    execArgv: ['--expose-gc', '--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  // 'message' comes with (message, sendHandle): the selector keeps the message only.
  const messages$ = fromEvent(child, 'message', (message: FromServer) => message);
  const ready = await firstValueFrom(
    messages$.pipe(filter((m): m is Extract<FromServer, { type: 'ready' }> => m.type === 'ready')),
  );
  const stats = (gc: boolean): Promise<Stats> => {
    const answer = firstValueFrom(messages$.pipe(filter((m): m is Stats => m.type === 'stats')));
    child.send({ type: 'stats', gc } satisfies ToServer);
    return answer;
  };

  // Warm-up: JIT, SQLite tables, allocator.
  await firstValueFrom(streams$(ready.fastUrl, 50, 200, timer(limitMs)));

  // Phase 1: memory with N streams open at once, then all clients gone.
  const baseline = await stats(true);
  const firstTexts = new Subject<void>();
  const disconnect = new Subject<void>();
  const phase1 = firstValueFrom(
    streams$(ready.slowUrl, streams, ramp, merge(disconnect, timer(limitMs)), () =>
      firstTexts.next(),
    ),
  );
  const t1 = performance.now();
  await lastValueFrom(firstTexts.pipe(take(streams), takeUntil(timer(limitMs))), {
    defaultValue: undefined,
  });
  const openAfterMs = performance.now() - t1;
  const peak = await stats(true);
  disconnect.next(); // every client goes away at once
  await phase1;
  const drained = await firstValueFrom(
    timer(0, 100).pipe(
      concatMap(() => stats(false)),
      filter((s) => s.activeStreams === 0),
      takeUntil(timer(10_000)),
    ),
    { defaultValue: undefined },
  );
  const after = await stats(true);

  // Phase 2: latency, N streams at a realistic pace, to the end.
  await stats(false); // resets the server's event-loop delay histogram
  const t2 = performance.now();
  const results = await firstValueFrom(streams$(ready.fastUrl, streams, ramp, timer(limitMs)));
  const seconds = (performance.now() - t2) / 1000;
  const loop = await stats(false);
  child.send({ type: 'stop' } satisfies ToServer);
  await firstValueFrom(fromEvent(child, 'exit'));

  const latencies = Float64Array.from(results.flatMap((r) => r.latencies)).sort();
  const sorted = (values: number[]): number[] => values.sort((a, b) => a - b);
  const firsts = sorted(results.map((r) => r.firstEventMs).filter((v) => v >= 0));
  const durations = sorted(results.map((r) => r.durationMs));
  const done = results.filter((r) => r.done).length;
  const deltas = Math.round(latencies.length / Math.max(results.length, 1));
  const mb = (bytes: number): string => (bytes / 1024 / 1024).toFixed(1);
  const kb = (bytes: number): string => (bytes / 1024).toFixed(1);
  const ms = (value: number): string => value.toFixed(1);
  const held = peak.activeStreams;
  console.log(
    [
      `### SSE load: ${streams} concurrent streams`,
      '',
      `${cpus()[0]?.model ?? 'unknown CPU'} × ${cpus().length}, Node ${process.version}, load average ${loadavg()[0].toFixed(1)} at the end. Server (the demo, offline model) in a child process; ${streams} clients in this one; loopback HTTP/1.1; connections opened over ${ramp} ms.`,
      `Each stream: POST /api/chat "${QUESTION}": 8 tool calls in round 1, ~${deltas} text deltas in round 2, memory in SQLite.`,
      '',
      '| measure | value |',
      '| --- | --- |',
      `| phase 1: streams open at once | ${held} / ${streams} (all streaming text ${(openAfterMs / 1000).toFixed(1)} s after the first connection) |`,
      `| server heap per open stream | ${kb((peak.heapUsed - baseline.heapUsed) / held)} KB (${mb(baseline.heapUsed)} → ${mb(peak.heapUsed)} MB, after GC) |`,
      `| server RSS per open stream | ${kb((peak.rss - baseline.rss) / held)} KB (${mb(baseline.rss)} → ${mb(peak.rss)} MB) |`,
      `| after every client disconnected | ${drained === undefined ? 'streams still open after 10 s' : '0 streams open'}; heap ${mb(after.heapUsed)} MB (baseline ${mb(baseline.heapUsed)}) |`,
      `| phase 2: streams ended with \`done\` | ${done} / ${streams} in ${seconds.toFixed(1)} s (${interval} ms between deltas) |`,
      `| chunk latency p50 / p99 / max | ${ms(percentile(latencies, 50))} / ${ms(percentile(latencies, 99))} / ${ms(percentile(latencies, 100))} ms (${latencies.length} text deltas) |`,
      `| first event p50 / p99 | ${ms(percentile(firsts, 50))} / ${ms(percentile(firsts, 99))} ms |`,
      `| stream duration p50 / p99 | ${ms(percentile(durations, 50) / 1000)} / ${ms(percentile(durations, 99) / 1000)} s (paced minimum ${ms((100 + deltas * interval) / 1000)} s) |`,
      `| server event-loop delay p99 / max | ${ms(loop.loopDelayP99)} / ${ms(loop.loopDelayMax)} ms |`,
    ].join('\n'),
  );
  if (held < streams || done < streams || drained === undefined) process.exitCode = 1;
}

if (process.argv.includes('--serve')) {
  serve().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
} else {
  load()
    .then(() => (process.argv.includes('--no-two-instances') ? undefined : twoInstances()))
    .catch((error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    });
}

/** The two-process run through Redis (bench/sse-two-instances.ts, issue 18 point 6). */
function twoInstances(): Promise<void> {
  console.log('\n### SSE load: two instances through Redis (bench/sse-two-instances.ts)');
  const args = ['--expose-gc', '--import', 'tsx', 'bench/sse-two-instances.ts'];
  const child = spawn(process.execPath, args, { stdio: 'inherit' });
  return new Promise((resolve) =>
    child.once('exit', (code) => {
      if (code !== 0) process.exitCode = 1;
      resolve();
    }),
  );
}
