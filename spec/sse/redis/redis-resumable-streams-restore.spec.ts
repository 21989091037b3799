// Issue 26 point 5 on Redis: a browser reconnecting after the instance that ran its answer
// died gets the rest of the run. Instance A is a child process (SIGKILLed mid-answer);
// instances B and C are HTTP servers in this process; all share one Redis server (started
// by the harness) and one SQLite run journal file. The client is fetch plus the real SSE
// parser (eventsource-parser), resuming with Last-Event-ID.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EventSourceMessage } from 'eventsource-parser';
import { createClient } from 'redis';
import { NEVER } from 'rxjs';
import { RedisResumableStreams } from '../../../lib/sse/redis/index';
import { waitUntil } from '../../support/servers/free-port';
import { describeWith, redisPlan, type StoreServer } from '../../support/servers/store-servers';
import { readEvents } from '../support/sse-test-kit';
import { deltas, text } from '../support/durable-search-client';
import {
  ANSWER,
  startDurableRedisInstance,
  type DurableRedisInstance,
} from './support/durable-redis-instance';

const plan = redisPlan();

const lastId = (events: readonly EventSourceMessage[]): string => events[events.length - 1].id!;

let prefixes = 0;

describeWith(plan)('RedisResumableStreams restore: a durable run whose instance died', () => {
  let server: StoreServer;
  let dir: string;
  let keyPrefix: string;
  let children: ChildProcess[];
  let instances: DurableRedisInstance[];

  beforeAll(async () => {
    server = await plan.start();
  }, 60_000);
  afterAll(async () => {
    await server?.dispose();
  });
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'redis-restore-'));
    keyPrefix = `rx-sse-restore:${process.pid}:${++prefixes}:`;
    children = [];
    instances = [];
  });
  afterEach(async () => {
    for (const child of children) child.kill('SIGKILL');
    for (const instance of instances) await instance.stop().catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  });

  const place = () => ({
    redisUrl: server.url,
    keyPrefix,
    journalPath: join(dir, 'runs.sqlite'),
  });
  /** Instance A: a process of its own, which the test kills. */
  const startProcess = async (interval = 50): Promise<{ url: string; child: ChildProcess }> => {
    const { redisUrl, journalPath } = place();
    const script = join(__dirname, 'support', 'durable-instance-process.ts');
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', script, redisUrl, keyPrefix, journalPath, String(interval)],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    children.push(child);
    let out = '';
    child.stdout.on('data', (data: Buffer) => (out += data.toString()));
    await waitUntil('instance A to listen', () => Promise.resolve(out.includes('\n')), 20_000);
    return { url: /listening (\S+)/.exec(out)![1], child };
  };
  const start = async (): Promise<DurableRedisInstance> => {
    const instance = await startDurableRedisInstance(place());
    instances.push(instance);
    return instance;
  };
  const kill = async (child: ChildProcess): Promise<void> => {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  };
  const post = (url: string, streamId: string) =>
    fetch(`${url}/chat/${streamId}`, { method: 'POST', headers: { 'x-owner': 'ada' } });
  const resume = (url: string, streamId: string, lastEventId?: string, owner = 'ada') =>
    fetch(`${url}/chat/${streamId}`, {
      headers: {
        'x-owner': owner,
        ...(lastEventId === undefined ? {} : { 'last-event-id': lastEventId }),
      },
    });

  it('resumes on B right after A is SIGKILLed mid-answer: what A kept, then the rest from the journal, nothing twice', async () => {
    const a = await startProcess();
    const before = await readEvents(await post(a.url, 'run-1'), (events) => deltas(events) >= 12);
    await kill(a.child);
    // The id carries the run's delivery units: `<n>.<units>`.
    expect(lastId(before)).toMatch(/^\d+\.\d+$/);

    // A's stream is still "running" in Redis: B reads it until it sees A is gone.
    const b = await start();
    const response = await resume(b.url, 'run-1', lastId(before));
    expect(response.status).toBe(200);
    const after = await readEvents(response);
    expect(text(before) + text(after)).toBe(ANSWER);
    expect(after.at(-1)?.event).toBe('done');
    expect(after.every((e) => e.id === undefined || /^\d+\.\d+$/.test(e.id))).toBe(true);
    // Round 1 came from the journal; only the round cut off was asked again. The search is
    // idempotent: its outcome rides with the next round's append, which A never made, so B
    // runs it once more (docs/durable-runs.md, "Cost (measured)").
    expect(b.model.calls).toBe(1);
    expect(b.searches).toEqual(['x']);
    const run = after.find((e) => e.event === 'data');
    expect(JSON.parse(run!.data)).toMatchObject({ data: { runId: 'run-1', resumed: true } });
  }, 40_000);

  it("restores a lost run for its owner only (204 for another owner and an unknown run), and an id of A's checked against the restored stream", async () => {
    const a = await startProcess();
    const before = await readEvents(await post(a.url, 'run-2'), (events) => deltas(events) >= 6);
    await kill(a.child);
    const b = await start();
    const key = { owner: 'ada', streamId: 'run-2' };
    // Nobody reads A's stream: it expires from Redis, the run stays in the journal.
    await waitUntil(
      "A's stream to expire",
      async () => (await b.streams.store.get(key)) === undefined,
      10_000,
    );
    const lostId = lastId(before);
    expect((await resume(b.url, 'run-2', lostId, 'eve')).status).toBe(204);
    expect((await resume(b.url, 'nope', lostId)).status).toBe(204);
    expect(b.model.calls).toBe(0);

    // The owner gets the rest on B; the connection breaks after a few events.
    const middle = await readEvents(await resume(b.url, 'run-2', lostId), (events) =>
      events.some((e) => e.event === 'text-delta' && deltas(events) >= 4),
    );
    expect(middle[0].event).toBe('data');
    // C resumes B's restored stream after its last event: an ordinary resume across instances.
    const c = await start();
    const rest = await readEvents(await resume(c.url, 'run-2', lastId(middle)));
    expect(text(before) + text(middle) + text(rest)).toBe(ANSWER);
    expect(c.model.calls).toBe(0);
    // A client still holding A's id: its number means nothing in B's stream; C restores again.
    const again = await readEvents(await resume(c.url, 'run-2', lostId));
    expect(text(before) + text(again)).toBe(ANSWER);
  }, 40_000);

  it("takes an instance for dead after three heartbeats (at least 3 s), not the streams' ttl", async () => {
    const client = createClient({ url: server.url });
    client.on('error', () => undefined);
    await client.connect();
    const streams = new RedisResumableStreams({
      client,
      keyPrefix,
      ttl: 60_000,
      heartbeatInterval: 200,
    });
    const key = { owner: 'ada', streamId: 'lease' };
    const frames = streams.start(key, NEVER, { heartbeat: false }).subscribe();
    try {
      await waitUntil('the stream to be created', async () => await streams.has(key));
      const producer = await client.pTTL(`${keyPrefix}ada:lease:producer`);
      const alive = await client.pTTL(`${keyPrefix}ada:lease:alive`);
      expect(producer).toBeGreaterThan(0);
      expect(producer).toBeLessThanOrEqual(3000);
      expect(alive).toBeGreaterThan(3000);
    } finally {
      frames.unsubscribe();
      await streams.close();
      client.destroy();
    }
  });

  it('a reader on B while A dies gets the rest on the same connection', async () => {
    const a = await startProcess(100); // 4 s of answer: A surely dies in the middle
    const first = await readEvents(await post(a.url, 'run-3'), (events) => deltas(events) >= 3);
    const b = await start();
    const onB = await readEvents(await resume(b.url, 'run-3', lastId(first)), (events) => {
      if (deltas(events) === 3 && !a.child.killed) a.child.kill('SIGKILL');
      return events.at(-1)?.event === 'done';
    });
    expect(text(first) + text(onB)).toBe(ANSWER);
    expect(onB.filter((e) => e.event === 'error')).toEqual([]);
    expect(b.model.calls).toBe(1); // restored: A died before the end
  }, 40_000);
});
