import { createClient, type RedisClientType } from 'redis';
import { Observable, Subject, take, toArray, lastValueFrom, type Subscription } from 'rxjs';
import type { ChatChunk } from '../../../lib/core/chat-chunk';
import { ResumableStreamError } from '../../../lib/errors/resumable-stream-error';
import { ResumableStreamLimitError } from '../../../lib/errors/resumable-stream-limit-error';
import { RedisResumableStreams } from '../../../lib/sse/redis/index';
import { waitUntil } from '../../support/servers/free-port';
import {
  describeWith,
  itRestartingServer,
  redisPlan,
  type StoreServer,
} from '../../support/servers/store-servers';
import { eventually, parseSse } from '../support/sse-test-kit';

const plan = redisPlan();
let server: StoreServer;
const clients: RedisClientType[] = [];
const instances: RedisResumableStreams[] = [];
let prefixes = 0;

const delta = (text: string): ChatChunk => ({ type: 'text-delta', text });

/** One "instance": its own client (and the two connections its store duplicates). */
async function instance(
  keyPrefix: string,
  options: Partial<ConstructorParameters<typeof RedisResumableStreams>[0]> = {},
): Promise<RedisResumableStreams> {
  const client: RedisClientType = createClient({ url: server.url });
  client.on('error', () => undefined);
  await client.connect();
  clients.push(client);
  const streams = new RedisResumableStreams({ client, keyPrefix, ...options });
  instances.push(streams);
  return streams;
}

/** A model call the test drives, which says when it is torn down (its request aborted). */
function controlled(): {
  live: Subject<ChatChunk>;
  source$: Observable<ChatChunk>;
  aborted: () => boolean;
} {
  const live = new Subject<ChatChunk>();
  let aborted = false;
  const source$ = new Observable<ChatChunk>((subscriber) => {
    const subscription = live.subscribe(subscriber);
    return () => {
      aborted = true;
      subscription.unsubscribe();
    };
  });
  return { live, source$, aborted: () => aborted };
}

const ids = (frames: string[]): (string | undefined)[] =>
  parseSse(frames.join('')).events.map((event) => event.id ?? event.event);

describeWith(plan)('RedisResumableStreams', () => {
  let keyPrefix: string;
  const subscriptions: Subscription[] = [];
  beforeAll(async () => {
    server = await plan.start();
  }, 60_000);
  beforeEach(() => {
    keyPrefix = `rx-sse-test:${process.pid}:${++prefixes}:`;
  });
  afterEach(async () => {
    for (const subscription of subscriptions.splice(0)) subscription.unsubscribe();
    await Promise.all(instances.splice(0).map((streams) => streams.close()));
    for (const client of clients.splice(0)) client.destroy();
  });
  afterAll(async () => {
    await server?.dispose();
  });

  it('starts on A, resumes on B after a Last-Event-ID (the frames so far, then live), and completes', async () => {
    const a = await instance(keyPrefix);
    const b = await instance(keyPrefix);
    const { live, source$ } = controlled();
    const key = { owner: 'alice', streamId: a.createStreamId() };
    const first: string[] = [];
    subscriptions.push(a.start(key, source$, { heartbeat: false }).subscribe((f) => first.push(f)));
    await eventually(() => live.observed, 'the model call to start');
    live.next(delta('one'));
    live.next(delta('two'));
    live.next(delta('three'));
    await waitUntil('three frames on A', () => Promise.resolve(first.length >= 3));
    subscriptions[0]?.unsubscribe(); // the client drops its connection

    const resumed: string[] = [];
    let completed = false;
    subscriptions.push(
      b.resume(key, { lastEventId: '1', heartbeat: false }).subscribe({
        next: (frame) => resumed.push(frame),
        complete: () => (completed = true),
      }),
    );
    await waitUntil('frames 2 and 3 on B', () => Promise.resolve(resumed.length >= 2));
    live.next(delta('four'));
    live.next({ type: 'finish', reason: 'stop' });
    live.complete();
    await waitUntil('the end on B', () => Promise.resolve(completed));
    // Exactly the rest: 2, 3, the live 4, then the encoder's closing events, no gap, no repeat.
    const resumedIds = ids(resumed).map(Number);
    expect(resumedIds.slice(0, 3)).toEqual([2, 3, 4]);
    expect(resumedIds).toEqual(resumedIds.map((_, i) => i + 2));
    expect(resumed.join('')).toContain('four');
  }, 20_000);

  it('cancels on B: the model call on A is aborted and readers on both get the ended error', async () => {
    const a = await instance(keyPrefix);
    const b = await instance(keyPrefix);
    const { live, source$, aborted } = controlled();
    const key = { owner: 'alice', streamId: a.createStreamId() };
    const onA: string[] = [];
    subscriptions.push(a.start(key, source$, { heartbeat: false }).subscribe((f) => onA.push(f)));
    await eventually(() => live.observed, 'the model call to start');
    live.next(delta('one'));
    const onB: string[] = [];
    subscriptions.push(b.resume(key, { heartbeat: false }).subscribe((f) => onB.push(f)));
    await waitUntil('frame 1 on B', () => Promise.resolve(onB.length >= 1));

    expect(await b.delete(key)).toBe(true);
    await eventually(() => aborted(), 'the model call on A to be aborted');
    await waitUntil('the error event on both', () =>
      Promise.resolve(ids(onA).includes('error') && ids(onB).includes('error')),
    );
    expect(await b.delete(key)).toBe(false);
    await expect(lastValueFrom(b.resume(key, { heartbeat: false }))).rejects.toMatchObject({
      reason: 'not-found',
    });
  }, 20_000);

  it("never serves another owner's stream, on any instance", async () => {
    const a = await instance(keyPrefix);
    const b = await instance(keyPrefix);
    const { live, source$ } = controlled();
    const key = { owner: 'alice', streamId: a.createStreamId() };
    subscriptions.push(a.start(key, source$, { heartbeat: false }).subscribe());
    await eventually(() => live.observed, 'the model call to start');
    const error = await lastValueFrom(b.resume({ owner: 'mallory', streamId: key.streamId })).catch(
      (e: unknown) => e,
    );
    expect(ResumableStreamError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ reason: 'not-found' });
    expect(await b.delete({ owner: 'mallory', streamId: key.streamId })).toBe(false);
    expect(live.observed).toBe(true);
  }, 20_000);

  it('caps the frames kept per stream: a resume from before the oldest kept one gets the evicted error event', async () => {
    const a = await instance(keyPrefix, { maxBufferedFrames: 3 });
    const { live, source$ } = controlled();
    const key = { owner: 'alice', streamId: a.createStreamId() };
    subscriptions.push(a.start(key, source$, { heartbeat: false }).subscribe());
    await eventually(() => live.observed, 'the model call to start');
    for (let i = 0; i < 10; i++) live.next(delta(`d${i}`));
    live.complete();
    await waitUntil('the stream to finish', async () => {
      const frames = await lastValueFrom(
        a.resume(key, { lastEventId: '8', heartbeat: false }).pipe(toArray()),
      );
      return ids(frames).includes('10');
    });
    const fromStart = await lastValueFrom(a.resume(key, { heartbeat: false }).pipe(toArray()));
    expect(ids(fromStart)).toEqual(['error']);
    expect(fromStart.join('')).toContain('no longer buffered');
    const ahead = await lastValueFrom(
      a.resume(key, { lastEventId: '99', heartbeat: false }).pipe(toArray()),
    );
    expect(ids(ahead)).toEqual(['error']);
  }, 20_000);

  it('ends a running stream nobody reads once its ttl passed, aborting the model call', async () => {
    const a = await instance(keyPrefix, { ttl: 1000, heartbeatInterval: 100 });
    const { live, source$, aborted } = controlled();
    const key = { owner: 'alice', streamId: a.createStreamId() };
    a.start(key, source$, { heartbeat: false }).pipe(take(1)).subscribe(); // reads one frame, leaves
    await eventually(() => live.observed, 'the model call to start');
    live.next(delta('one'));
    await waitUntil('the model call to be aborted', () => Promise.resolve(aborted()), 5000);
    expect(await a.store.get(key)).toBeUndefined();
  }, 20_000);

  it('ends a stream whose instance died (no producer heartbeat for ttl): readers on B get the error event', async () => {
    const a = await instance(keyPrefix, { ttl: 1000, heartbeatInterval: 100 });
    const b = await instance(keyPrefix, { ttl: 1000, heartbeatInterval: 100 });
    const { live, source$ } = controlled();
    const key = { owner: 'alice', streamId: a.createStreamId() };
    subscriptions.push(a.start(key, source$, { heartbeat: false }).subscribe());
    await eventually(() => live.observed, 'the model call to start');
    live.next(delta('one'));
    const onB: string[] = [];
    let ended = false;
    subscriptions.push(
      b.resume(key, { heartbeat: false }).subscribe({
        next: (f) => onB.push(f),
        complete: () => (ended = true),
      }),
    );
    await waitUntil('frame 1 on B', () => Promise.resolve(onB.length >= 1));
    clients[0].destroy(); // instance A is gone: no more appends, no more heartbeats
    await waitUntil('the reader on B to end', () => Promise.resolve(ended), 5000);
    expect(ids(onB)).toEqual(['1', 'error']);
  }, 20_000);

  it('refuses one more running stream per owner than maxStreamsPerOwner', async () => {
    const a = await instance(keyPrefix, { maxStreamsPerOwner: 1 });
    const { live, source$ } = controlled();
    subscriptions.push(
      a.start({ owner: 'alice', streamId: 's1' }, source$, { heartbeat: false }).subscribe(),
    );
    await eventually(() => live.observed, 'the model call to start');
    const error = await a.store
      .create({ owner: 'alice', streamId: 's2' }, { encoder: 'rx-advisors' })
      .catch((e: unknown) => e);
    expect(ResumableStreamLimitError.isInstance(error)).toBe(true);
  }, 20_000);

  it('serves 300 resumed streams over a bounded number of connections (3 per instance)', async () => {
    const a = await instance(keyPrefix);
    const b = await instance(keyPrefix);
    const clientCount = async () =>
      (await clients[0].sendCommand<string>(['CLIENT', 'LIST', 'TYPE', 'normal']))
        .trim()
        .split('\n').length +
      (await clients[0].sendCommand<string>(['CLIENT', 'LIST', 'TYPE', 'pubsub']))
        .trim()
        .split('\n').length;
    const models = Array.from({ length: 300 }, () => controlled());
    const keys = models.map((_, i) => ({ owner: `user-${i}`, streamId: `s${i}` }));
    models.forEach(({ source$ }, i) =>
      subscriptions.push(a.start(keys[i], source$, { heartbeat: false }).subscribe()),
    );
    await eventually(() => models.every((m) => m.live.observed), 'every model call to start');
    models.forEach(({ live }, i) => live.next(delta(`first ${i}`)));
    const received = keys.map(() => [] as string[]);
    keys.forEach((key, i) =>
      subscriptions.push(b.resume(key, { heartbeat: false }).subscribe((f) => received[i].push(f))),
    );
    await waitUntil(
      'every first frame on B',
      () => Promise.resolve(received.every((r) => r.length >= 1)),
      10_000,
    );
    models.forEach(({ live }, i) => live.next(delta(`second ${i}`)));
    await waitUntil(
      'every second frame on B',
      () => Promise.resolve(received.every((r) => r.length >= 2)),
      10_000,
    );
    // Two instances, the test's own clients aside: at most 3 connections each.
    expect(await clientCount()).toBeLessThanOrEqual(2 + 2 * 2 + 1);
    expect(b.store.readingKeys).toBe(300);
  }, 60_000);

  itRestartingServer(plan)(
    'when Redis restarts mid-stream the answer goes on or ends with the error event, never hangs, and works afterwards',
    async () => {
      const a = await instance(keyPrefix, { readRetry: 2000 });
      const { live, source$ } = controlled();
      const key = { owner: 'alice', streamId: a.createStreamId() };
      const frames: string[] = [];
      let done = false;
      subscriptions.push(
        a.start(key, source$, { heartbeat: false }).subscribe({
          next: (f) => frames.push(f),
          complete: () => (done = true),
          error: () => (done = true),
        }),
      );
      await eventually(() => live.observed, 'the model call to start');
      live.next(delta('one'));
      await waitUntil('frame 1', () => Promise.resolve(frames.length >= 1));
      await server.control?.stop('SIGKILL');
      live.next(delta('two'));
      await new Promise((resolve) => setTimeout(resolve, 200));
      await server.control?.start();
      live.next(delta('three'));
      live.next({ type: 'finish', reason: 'stop' });
      live.complete();
      await waitUntil('the reader to end', () => Promise.resolve(done), 10_000);
      const got = ids(frames);
      if (got.includes('error')) {
        // Failed: the protocol's error event, after whole frames only.
        expect(got[got.length - 1]).toBe('error');
      } else {
        // Went on: every frame once, in order, the restart invisible.
        expect(got.map(Number)).toEqual(got.map((_, i) => i + 1));
        expect(frames.join('')).toContain('three');
      }
      // Works again afterwards, on the same instance.
      await waitUntil('the client to reconnect', async () => (await clients[0].ping()) === 'PONG');
      const next = controlled();
      const again: string[] = [];
      subscriptions.push(
        a
          .start({ owner: 'alice', streamId: a.createStreamId() }, next.source$, {
            heartbeat: false,
          })
          .subscribe((f) => again.push(f)),
      );
      await eventually(() => next.live.observed, 'the second model call to start');
      next.live.next(delta('back'));
      await waitUntil('a frame after the restart', () => Promise.resolve(again.length >= 1), 5000);
      expect(again.join('')).toContain('back');
    },
    30_000,
  );
});
