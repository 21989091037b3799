import { lastValueFrom, toArray } from 'rxjs';
import { ResumableStreamError } from '../../../lib/errors/resumable-stream-error';
import { ResumableStreamLimitError } from '../../../lib/errors/resumable-stream-limit-error';
import { waitUntil } from '../../support/servers/free-port';
import { describeWith, redisPlan } from '../../support/servers/store-servers';
import { eventually } from '../support/sse-test-kit';
import { controlled, delta, ids, redisStreamsFixture } from './support/redis-streams-kit';

const plan = redisPlan();

describeWith(plan)('RedisResumableStreams', () => {
  const fx = redisStreamsFixture(plan);

  it('starts on A, resumes on B after a Last-Event-ID (the frames so far, then live), and completes', async () => {
    const a = await fx.instance();
    const b = await fx.instance();
    const { live, source$ } = controlled();
    const key = { owner: 'alice', streamId: a.createStreamId() };
    const first: string[] = [];
    fx.subscriptions.push(
      a.start(key, source$, { heartbeat: false }).subscribe((f) => first.push(f)),
    );
    await eventually(() => live.observed, 'the model call to start');
    live.next(delta('one'));
    live.next(delta('two'));
    live.next(delta('three'));
    await waitUntil('three frames on A', () => Promise.resolve(first.length >= 3));
    fx.subscriptions[0]?.unsubscribe(); // the client drops its connection

    const resumed: string[] = [];
    let completed = false;
    fx.subscriptions.push(
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
    const a = await fx.instance();
    const b = await fx.instance();
    const { live, source$, aborted } = controlled();
    const key = { owner: 'alice', streamId: a.createStreamId() };
    const onA: string[] = [];
    fx.subscriptions.push(
      a.start(key, source$, { heartbeat: false }).subscribe((f) => onA.push(f)),
    );
    await eventually(() => live.observed, 'the model call to start');
    live.next(delta('one'));
    const onB: string[] = [];
    fx.subscriptions.push(b.resume(key, { heartbeat: false }).subscribe((f) => onB.push(f)));
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
    const a = await fx.instance();
    const b = await fx.instance();
    const { live, source$ } = controlled();
    const key = { owner: 'alice', streamId: a.createStreamId() };
    fx.subscriptions.push(a.start(key, source$, { heartbeat: false }).subscribe());
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
    const a = await fx.instance({ maxBufferedFrames: 3 });
    const { live, source$ } = controlled();
    const key = { owner: 'alice', streamId: a.createStreamId() };
    fx.subscriptions.push(a.start(key, source$, { heartbeat: false }).subscribe());
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

  it('refuses one more running stream per owner than maxStreamsPerOwner', async () => {
    const a = await fx.instance({ maxStreamsPerOwner: 1 });
    const { live, source$ } = controlled();
    fx.subscriptions.push(
      a.start({ owner: 'alice', streamId: 's1' }, source$, { heartbeat: false }).subscribe(),
    );
    await eventually(() => live.observed, 'the model call to start');
    const error = await a.store
      .create({ owner: 'alice', streamId: 's2' }, { encoder: 'rx-advisors' })
      .catch((e: unknown) => e);
    expect(ResumableStreamLimitError.isInstance(error)).toBe(true);
  }, 20_000);

  it('serves 300 resumed streams over a bounded number of connections (3 per instance)', async () => {
    const a = await fx.instance();
    const b = await fx.instance();
    const clientCount = async () =>
      (await fx.clients[0].sendCommand<string>(['CLIENT', 'LIST', 'TYPE', 'normal']))
        .trim()
        .split('\n').length +
      (await fx.clients[0].sendCommand<string>(['CLIENT', 'LIST', 'TYPE', 'pubsub']))
        .trim()
        .split('\n').length;
    const models = Array.from({ length: 300 }, () => controlled());
    const keys = models.map((_, i) => ({ owner: `user-${i}`, streamId: `s${i}` }));
    models.forEach(({ source$ }, i) =>
      fx.subscriptions.push(a.start(keys[i], source$, { heartbeat: false }).subscribe()),
    );
    await eventually(() => models.every((m) => m.live.observed), 'every model call to start');
    models.forEach(({ live }, i) => live.next(delta(`first ${i}`)));
    const received = keys.map(() => [] as string[]);
    keys.forEach((key, i) =>
      fx.subscriptions.push(
        b.resume(key, { heartbeat: false }).subscribe((f) => received[i].push(f)),
      ),
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
});
