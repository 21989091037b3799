// W7's per-frame path without the network: S answers of the UI message stream written into
// fake responses (a `write` that measures the string as Node's does, `Buffer.byteLength`,
// which also flattens it), driven by one loop, for rx-advisors (`ChatClient` →
// `pipeToNodeResponse(…, { protocol: 'ai-sdk-ui' })`) and for W7's floor (one template and
// one `res.write` per delta, as bench/adapters/w7-floor-http.ts). Not part of `npm run bench`.
//
//   TSX_TSCONFIG_PATH=bench/tsconfig.bench.json node --import tsx bench/w7-frame-path.ts
//     [--frames=100,600] [--streams=200] [--variants=rx-advisors,floor-http] [--time]
//     [--repeat=7] [--sink=fake|http]
//
// `--sink=http`: the answers go over loopback HTTP/1.1 to raw sockets in the same process
// (read and dropped), one delta per answer per turn of the event loop, as in W7: Node's write
// path (chunked encoding, the per-tick cork, `writev`) and the sockets are in the count.
//
// Default: each variant at each frame count in a fresh process under callgrind; the result is
// instructions per frame = (I(N2) − I(N1)) / (S × (N2 − N1)): start-up, the answers' set-up and
// their ends cancel out. `--time`: CPU µs per frame in this process instead (warm, noisy).
// Build first (`node scripts/build.mjs`): 'rx-advisors' is dist/cjs.
import { EventEmitter } from 'node:events';
import { createServer, type ServerResponse } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { Observable, type Subscriber } from 'rxjs';
import { ChatClient, type ChatChunk } from 'rx-advisors';
import { pipeToNodeResponse } from 'rx-advisors/sse';
import { DELTA, HEAD, HEADERS } from './adapters/w7-floor-http.js';
import { callgrindInstructions } from './harness/callgrind.js';

type Variant = 'rx-advisors' | 'floor-http';
type Sink = 'fake' | 'http';

/** A response that takes every write at once and counts its UTF-8 bytes. */
class FakeResponse extends EventEmitter {
  headersSent = false;
  destroyed = false;
  writableFinished = false;
  bytes = 0;
  writeHead(): this {
    this.headersSent = true;
    return this;
  }
  flushHeaders(): void {}
  write(chunk: string): boolean {
    this.bytes += Buffer.byteLength(chunk);
    return true;
  }
  end(chunk?: string): this {
    if (chunk !== undefined) this.bytes += Buffer.byteLength(chunk);
    this.writableFinished = true;
    this.emit('finish');
    this.emit('close');
    return this;
  }
  destroy(): this {
    this.destroyed = true;
    return this;
  }
}

/** One answer as the driver sees it. */
interface Answer {
  delta(k: number, text: string): void;
  end(): void;
}

const USAGE: ChatChunk = {
  type: 'usage',
  usage: { inputTokens: 12, outputTokens: 34, totalTokens: 46 },
};
const FINISH: ChatChunk = { type: 'finish', reason: 'stop' };
type Handler = (res: ServerResponse, answers: Answer[]) => void;

/** The server side of one answer, per variant: registers the answer the driver writes. */
function handlerOf(variant: Variant, frames: number): Handler {
  if (variant === 'floor-http') {
    return (res, answers) => {
      res.writeHead(200, HEADERS);
      res.write(HEAD);
      answers.push({
        delta: (k, text) => {
          res.write(`id: ${k + 4}\n${DELTA}${JSON.stringify(text)}}\n\n`);
        },
        end: () => {
          res.end(`id: ${frames + 4}\ndata: {"type":"text-end","id":"text-1"}\n\n`);
        },
      });
    };
  }
  let pending: Answer[] = [];
  const client = ChatClient.create({
    provider: 'bench',
    stream: () =>
      new Observable<ChatChunk>((subscriber: Subscriber<ChatChunk>) => {
        pending.push({
          delta: (_k, text) => subscriber.next({ type: 'text-delta', text }),
          end: () => {
            subscriber.next(USAGE);
            subscriber.next(FINISH);
            subscriber.complete();
          },
        });
      }),
  });
  return (res, answers) => {
    pending = answers;
    pipeToNodeResponse(client.prompt('Hi').stream().chunks(), res, { protocol: 'ai-sdk-ui' });
  };
}

async function until(done: () => boolean, what: string): Promise<void> {
  const limit = Date.now() + 60_000;
  while (!done() && Date.now() < limit) await new Promise((resolve) => setTimeout(resolve, 1));
  if (!done()) throw new Error(`w7-frame-path: ${what}`);
}

/** S answers into fake responses. */
async function fakeAnswers(handler: Handler, streams: number): Promise<Answer[]> {
  const answers: Answer[] = [];
  for (let s = 0; s < streams; s++)
    handler(new FakeResponse() as unknown as ServerResponse, answers);
  await until(() => answers.length === streams, `${answers.length} of ${streams} answers started`);
  return answers;
}

/** S answers over loopback HTTP/1.1, each read (and dropped) by a raw socket in this process. */
async function httpAnswers(
  handler: Handler,
  streams: number,
): Promise<{ answers: Answer[]; ended: () => boolean; close: () => void }> {
  const answers: Answer[] = [];
  const server = createServer((_req, res) => handler(res, answers));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  let closed = 0;
  for (let s = 0; s < streams; s++) {
    const socket = connect(port, '127.0.0.1');
    socket.on('data', (data: Buffer) => {
      if (data.includes(TERMINATOR)) socket.end();
    });
    socket.on('close', () => closed++);
    socket.write('GET / HTTP/1.1\r\nhost: localhost\r\n\r\n');
  }
  await until(() => answers.length === streams, `${answers.length} of ${streams} requests arrived`);
  return { answers, ended: () => closed === streams, close: () => server.close() };
}

const TERMINATOR = Buffer.from('0\r\n\r\n');

/** Runs S answers of `frames` deltas each. */
async function run(variant: Variant, sink: Sink, streams: number, frames: number): Promise<void> {
  const handler = handlerOf(variant, frames);
  const http = sink === 'http' ? await httpAnswers(handler, streams) : undefined;
  const answers = http?.answers ?? (await fakeAnswers(handler, streams));
  const due = performance.timeOrigin;
  for (let k = 0; k < frames; k++) {
    const text = `${k}@${(due + k).toFixed(3)};`;
    for (const answer of answers) answer.delta(k, text);
    // Over sockets, one delta per answer per turn of the event loop, as in W7.
    if (http !== undefined) await new Promise((resolve) => setImmediate(resolve));
  }
  for (const answer of answers) answer.end();
  if (http !== undefined) {
    await until(http.ended, 'the answers did not end');
    http.close();
  }
}

async function cpuOf(work: () => Promise<void>): Promise<number> {
  const start = process.cpuUsage();
  await work();
  const used = process.cpuUsage(start);
  return used.user + used.system;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

function instructions(
  variant: Variant,
  sink: Sink,
  streams: number,
  frames: number,
): Promise<number> {
  return callgrindInstructions(
    [
      ...process.execArgv,
      '--single-threaded',
      process.argv[1],
      '--child',
      `--variants=${variant}`,
      `--streams=${streams}`,
      `--frames=${frames}`,
      `--sink=${sink}`,
    ],
    { label: `w7-frame-path ${variant} ${frames} frames` },
  );
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const value = (name: string): string | undefined =>
    args.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3);
  const frames = (value('frames') ?? '100,600').split(',').map(Number);
  const streams = Number(value('streams') ?? 200);
  const variants = (value('variants') ?? 'rx-advisors,floor-http').split(',') as Variant[];
  const repeat = Number(value('repeat') ?? 7);
  const sink = (value('sink') ?? 'fake') as Sink;
  if (args.includes('--child')) {
    await run(variants[0], sink, streams, 300); // warm-up: the JIT, as in a server that has run
    await run(variants[0], sink, streams, frames[0]);
    return;
  }
  const [n1, n2] = frames as [number, number];
  for (const variant of variants) {
    if (args.includes('--time')) {
      await run(variant, sink, streams, n2); // warm-up
      const perFrame: number[] = [];
      const perAnswer: number[] = [];
      for (let r = 0; r < repeat; r++) {
        const c1 = await cpuOf(() => run(variant, sink, streams, n1));
        const c2 = await cpuOf(() => run(variant, sink, streams, n2));
        perFrame.push((c2 - c1) / (streams * (n2 - n1)));
        perAnswer.push(c1 / streams);
      }
      console.log(
        `${variant}: ${median(perFrame).toFixed(3)} µs CPU per frame, ${median(perAnswer).toFixed(1)} µs per answer of ${n1} frames (median of ${repeat})`,
      );
      continue;
    }
    const [i1, i2] = await Promise.all([
      instructions(variant, sink, streams, n1),
      instructions(variant, sink, streams, n2),
    ]);
    const perFrame = (i2 - i1) / (streams * (n2 - n1));
    console.log(
      `${variant}: ${perFrame.toFixed(0)} instructions per frame (${(i1 / 1e6).toFixed(1)} M at ${n1}, ${(i2 / 1e6).toFixed(1)} M at ${n2}, ${streams} answers)`,
    );
  }
}

void main();
