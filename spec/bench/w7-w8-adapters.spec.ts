import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DefaultChatTransport, readUIMessageStream, type UIMessage } from 'ai';
import { W7_ADAPTERS } from '../../bench/adapters/w7-adapters';
import { PacedTicker } from '../../bench/adapters/w7-paced-ticker';
import type { SseServerAdapter } from '../../bench/adapters/w7-sse-adapter';
import { W8_REPOSITORIES, type OpenRepository } from '../../bench/adapters/w8-repositories';
import { stopBenchProcess } from '../../bench/workloads/w7-processes';
import { measureSseServer, startSseClients } from '../../bench/workloads/w7-sse-run';
import { historyMessage, historyOps } from '../../bench/workloads/w8-long-histories';
import { describeWith, postgresPlan, redisPlan } from '../support/servers/store-servers';

// Not a benchmark: every W7 and W8 adapter runs at a small size and must give the right
// answers, so a broken adapter fails CI instead of publishing a meaningless number.

const DELTAS = 10;
/** An answer's text: the stamped deltas 0…9, in order. */
const ANSWER = new RegExp(
  `^${Array.from({ length: DELTAS }, (_, k) => `${k}@\\d+\\.\\d{3};`).join('')}$`,
);

async function serve(adapter: SseServerAdapter, ticker: PacedTicker): Promise<Server> {
  const server = createServer(adapter.handler(ticker));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

/** One answer read with the AI SDK's own transport (it validates every chunk) and reader. */
async function chat(port: number): Promise<UIMessage> {
  const transport = new DefaultChatTransport({ api: `http://127.0.0.1:${port}/api/chat` });
  const stream = await transport.sendMessages({
    trigger: 'submit-message',
    chatId: 'w7',
    messageId: undefined,
    messages: [{ id: 'u1', role: 'user', parts: [{ type: 'text', text: 'Hi' }] }],
    abortSignal: undefined,
  });
  let message: UIMessage | undefined;
  for await (const snapshot of readUIMessageStream({
    stream,
    onError: (error) => {
      throw error;
    },
  })) {
    message = snapshot;
  }
  return message!;
}

// One client process for the two-process runs of every adapter.
let clients: ReturnType<typeof startSseClients> | undefined;
afterAll(async () => {
  if (clients !== undefined) await stopBenchProcess(clients);
}, 30_000);

describe.each(W7_ADAPTERS.map((adapter) => [adapter.framework, adapter] as const))(
  'W7 server adapter %s',
  (_name, adapter) => {
    it('serves 3 concurrent answers that the AI SDK reads whole, and stops its streams', async () => {
      const ticker = new PacedTicker({ interval: 2, deltas: DELTAS });
      const server = await serve(adapter, ticker);
      try {
        const { port } = server.address() as AddressInfo;
        const messages = await Promise.all([chat(port), chat(port), chat(port)]);
        for (const message of messages) {
          const texts = message.parts.flatMap((part) => (part.type === 'text' ? [part.text] : []));
          expect(texts).toHaveLength(1);
          expect(texts[0]).toMatch(ANSWER);
        }
        expect(ticker.active).toBe(0);
      } finally {
        ticker.close();
        await new Promise((resolve) => server.close(resolve));
      }
    });

    it('through the two processes: every delta delivered in order, measures in range', async () => {
      clients ??= startSseClients();
      const result = await measureSseServer(clients, adapter.framework, {
        n: 3,
        deltas: DELTAS,
        interval: 5,
        ramp: 10,
        warmup: { n: 0, interval: 5 },
        limitMs: 60_000,
      });
      expect(result.cpuUsPerChunk).toBeGreaterThan(0);
      expect(result.p50).toBeGreaterThan(0);
      expect(result.p99).toBeGreaterThanOrEqual(result.p50);
      expect(result.max).toBeLessThan(10_000);
    }, 60_000);
  },
);

describe('the W7 ticker', () => {
  it('paces each stream and stamps each delta with the time it was due', async () => {
    const ticker = new PacedTicker({ interval: 20, deltas: 3 });
    const seen: { k: number; text: string; at: number }[] = [];
    const ended = new Promise<void>((resolve) =>
      ticker.start({
        delta: (k, text) => seen.push({ k, text, at: performance.timeOrigin + performance.now() }),
        end: resolve,
      }),
    );
    await ended;
    expect(seen.map((s) => s.k)).toEqual([0, 1, 2]);
    const dues = seen.map((s) => Number(/@(\d+\.\d{3});$/.exec(s.text)![1]));
    expect(dues[1] - dues[0]).toBeCloseTo(20, 5);
    expect(dues[2] - dues[1]).toBeCloseTo(20, 5);
    for (const s of seen)
      expect(s.at).toBeGreaterThanOrEqual(Number(/@([\d.]+);$/.exec(s.text)![1]));
    expect(ticker.active).toBe(0);
  });

  it('parks every stream at parkAt until resume()', async () => {
    let resume = (): void => undefined;
    const parkedAll = new Promise<void>((resolve) => (resume = resolve));
    const ticker = new PacedTicker({
      interval: 2,
      deltas: 4,
      parkAt: 2,
      onPark: (parked) => parked === 2 && resume(),
    });
    const counts = [0, 0];
    const ends = counts.map(
      (_, s) =>
        new Promise<void>((resolve) => ticker.start({ delta: () => counts[s]++, end: resolve })),
    );
    await parkedAll;
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(counts).toEqual([2, 2]);
    ticker.resume();
    await Promise.all(ends);
    expect(counts).toEqual([4, 4]);
  });
});

function w8Suite(name: string): void {
  const adapter = W8_REPOSITORIES.find((a) => a.name === name)!;
  let open: OpenRepository | undefined;
  beforeAll(async () => {
    open = await adapter.open();
  }, 60_000);
  afterAll(async () => {
    await open?.close();
  }, 30_000);

  it('reads, appends and runs turns on a history of 10 messages that stays at 10', async () => {
    const { repository } = open!;
    const ops = await historyOps(repository, 10, 'spec-w8');
    await expect(ops.read()).resolves.toBe(10);
    expect((await repository.findByConversationId('spec-w8'))[0]).toEqual(historyMessage(0));
    await ops.append(1);
    const appended = await repository.findByConversationId('spec-w8');
    expect(appended).toHaveLength(10);
    expect(appended[0]).toEqual(historyMessage(2));
    expect(appended.slice(-2).map((m) => m.content)).toEqual([
      expect.stringContaining('[turn 1]'),
      expect.stringContaining('[turn 1]'),
    ]);
    await expect(ops.turn(2)).resolves.toBe(ops.answer);
    const turned = await repository.findByConversationId('spec-w8');
    expect(turned).toHaveLength(10);
    expect(turned.slice(-2)).toEqual([
      expect.objectContaining({ role: 'user', content: expect.stringContaining('[call 2]') }),
      { role: 'assistant', content: ops.answer },
    ]);
    await repository.deleteByConversationId('spec-w8');
  }, 30_000);
}

describe('W8 repository in-memory', () => w8Suite('in-memory'));
describe('W8 repository sqlite', () => w8Suite('sqlite'));
describeWith(redisPlan())('W8 repository redis', () => w8Suite('redis'));
describeWith(redisPlan())('W8 repository redis-everysec', () => w8Suite('redis-everysec'));
describeWith(postgresPlan())('W8 repository postgres', () => w8Suite('postgres'));
