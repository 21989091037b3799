// W7's client process (bench/workloads/w7-sse-server.ts forks one): opens N answers on
// the server over loopback HTTP/1.1 (one connection each), reads every frame, checks
// each answer (every delta once and in order, then `finish` and `[DONE]`) and measures
// each delta's latency: the time it was received here minus the time the model had it
// due (stamped in its text; both processes read the same clock through
// performance.timeOrigin + performance.now()).
// Messages (IPC): in `run` {port, n, deltas, ramp}; out `done` {p50, p99, max, delivered, problems}.
import { connect } from 'node:net';
import { setPriority } from 'node:os';
import { STAMP } from './adapters/w7-paced-ticker.js';

export interface W7ClientRun {
  type: 'run';
  port: number;
  n: number;
  deltas: number;
  /** Milliseconds over which the N connections open (evenly). */
  ramp: number;
}
export interface W7ClientReport {
  type: 'done';
  /** Delta latency quantiles, ms. */
  p50: number;
  p99: number;
  max: number;
  /** Deltas received, in order, in answers that ended well. */
  delivered: number;
  /** The first few answers that went wrong, and how. */
  problems: string[];
  /** This process's CPU during the run, ms (a busy client delays what it reads). */
  cpuMs: number;
}

const now = (): number => performance.timeOrigin + performance.now();

const DEBUG = process.env['W7_DEBUG'] !== undefined;
const debug: [number, number, number][] = [];
const REQUEST = 'GET /api/chat HTTP/1.1\r\nhost: 127.0.0.1\r\nconnection: close\r\n\r\n';

/**
 * Reads one answer on a raw socket (a plain request, the response read as text: the
 * stamps and markers are found in it with the chunked encoding's size lines left in
 * place, which is cheaper than Node's HTTP client and keeps this process from being the
 * bottleneck). Resolves with its deltas when it ended well, 0 otherwise; problems are
 * recorded, never thrown.
 */
function answer(
  port: number,
  deltas: number,
  latencies: Float64Array,
  cursor: { at: number },
  problems: string[],
): Promise<number> {
  return new Promise((resolve) => {
    let expected = 0;
    let rest = '';
    let head = true;
    let finished = false;
    let done = false;
    let settled = false;
    const fail = (what: string): void => {
      if (problems.length < 10) problems.push(what);
    };
    const socket = connect({ host: '127.0.0.1', port });
    socket.setEncoding('latin1');
    socket.on('data', (data: string) => {
      const at = now();
      let text = rest + data;
      if (head) {
        const body = text.indexOf('\r\n\r\n');
        if (body < 0) {
          rest = text;
          return;
        }
        const headers = text.slice(0, body).toLowerCase();
        if (
          !headers.startsWith('http/1.1 200') ||
          !headers.includes('\r\nx-vercel-ai-ui-message-stream: v1')
        )
          fail(`response head ${JSON.stringify(headers)}`);
        head = false;
        text = text.slice(body + 4);
      }
      const end = text.lastIndexOf('\n\n') + 2;
      if (end < 2) {
        rest = text;
        return;
      }
      const frames = text.slice(0, end);
      rest = text.slice(end);
      STAMP.lastIndex = 0;
      for (let match = STAMP.exec(frames); match !== null; match = STAMP.exec(frames)) {
        if (Number(match[1]) !== expected) fail(`delta ${match[1]} where ${expected} was due`);
        expected++;
        latencies[cursor.at++] = at - Number(match[2]);
        if (DEBUG) debug.push([Number(match[1]), at - Number(match[2]), Number(match[2])]);
      }
      if (!finished && frames.includes('"type":"finish"')) finished = true;
      if (frames.includes('data: [DONE]\n\n')) done = true;
    });
    const settle = (): void => {
      if (settled) return;
      settled = true;
      const good = expected === deltas && finished && done;
      if (!good) fail(`ended after ${expected} deltas, finish ${finished}, [DONE] ${done}`);
      resolve(good ? expected : 0);
    };
    socket.on('end', settle);
    socket.on('close', settle);
    socket.on('error', (error) => fail(`socket error ${error.message}`));
    socket.write(REQUEST);
  });
}

/** Opens `n` answers evenly over `ramp` ms and waits for all of them. */
async function run({ port, n, deltas, ramp }: W7ClientRun): Promise<W7ClientReport> {
  const cpu = process.cpuUsage();
  const latencies = new Float64Array(n * deltas);
  const cursor = { at: 0 };
  const problems: string[] = [];
  const answers: Promise<number>[] = [];
  const started = performance.now();
  await new Promise<void>((resolve) => {
    const open = (): void => {
      const due = Math.min(n, Math.ceil((n * (performance.now() - started + 1)) / ramp));
      while (answers.length < due) answers.push(answer(port, deltas, latencies, cursor, problems));
      if (answers.length === n) {
        clearInterval(timer);
        resolve();
      }
    };
    const timer = setInterval(open, 1);
    open();
  });
  const delivered = (await Promise.all(answers)).reduce((a, b) => a + b, 0);
  const { user, system } = process.cpuUsage(cpu);
  if (DEBUG) {
    const t0 = debug.reduce((min, d) => Math.min(min, d[2]), Infinity);
    const bySecond = new Map<number, number[]>();
    for (const [, latency, due] of debug) {
      const second = Math.floor((due - t0) / 1000);
      const values = bySecond.get(second);
      if (values === undefined) bySecond.set(second, [latency]);
      else values.push(latency);
    }
    for (const [second, values] of [...bySecond].sort((a, b) => a[0] - b[0])) {
      values.sort((a, b) => a - b);
      console.error(
        `  due +${second}s: ${values.length} deltas, p50 ${values[values.length >> 1].toFixed(1)} ms, max ${values[values.length - 1].toFixed(1)} ms`,
      );
    }
    debug.length = 0;
  }
  const sorted = latencies.subarray(0, cursor.at).sort();
  const quantile = (p: number): number =>
    sorted.length === 0
      ? Number.NaN
      : sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
  return {
    type: 'done',
    p50: quantile(0.5),
    p99: quantile(0.99),
    max: quantile(1),
    delivered,
    problems,
    cpuMs: (user + system) / 1000,
  };
}

// W7_PRIORITY=-10: run this process at that scheduling priority (a shared, loaded machine
// otherwise starves it; see docs/performance.md, W7). Only with the rights to raise it.
const priority = process.env['W7_PRIORITY'];
if (priority !== undefined && priority !== '') setPriority(Number(priority));

process.on('message', (message: W7ClientRun | { type: 'stop' }) => {
  if (message.type === 'stop') {
    process.disconnect();
    return;
  }
  void run(message).then((report) => process.send?.(report));
});
process.once('disconnect', () => process.exit(0));
