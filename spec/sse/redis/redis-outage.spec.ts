// Issue 30 point 8: a Redis outage (kill -9 of redis-server, then a restart) with a default
// node-redis client (offline queue on) and with `disableOfflineQueue`. The store must see the
// outage within readRetry whatever the queue does, stop the model call (its append fails),
// tell readers (the protocol's error event), and work again soon after Redis is back, with
// no stream left "running" that nobody produces. Bounds are generous upper bounds only.
import { waitUntil } from '../../support/servers/free-port';
import { describeWith, itRestartingServer, redisPlan } from '../../support/servers/store-servers';
import { eventually } from '../support/sse-test-kit';
import { controlled, delta, ids, redisStreamsFixture } from './support/redis-streams-kit';

const plan = redisPlan();

/** readRetry of the instances under test. */
const READ_RETRY = 1000;
/** How long Redis stays down: well past every bound below, so a hang cannot pass. */
const OUTAGE_MS = 8000;
/** Slack on top of readRetry for a loaded machine (the bounds are not speed measurements). */
const SLACK_MS = 4000;

/** Resolves with the milliseconds from `since` until `check` holds. */
async function msUntil(since: number, what: string, check: () => boolean | Promise<boolean>) {
  await waitUntil(what, async () => check(), OUTAGE_MS + 20_000);
  return Date.now() - since;
}

describeWith(plan)('RedisResumableStreams during a Redis outage', () => {
  const fx = redisStreamsFixture(plan);

  for (const [label, clientOptions] of [
    ['a default client (offline queue on)', {}],
    ['a disableOfflineQueue client', { disableOfflineQueue: true }],
  ] as const) {
    itRestartingServer(plan)(
      `with ${label}: the model call stops and readers get the error event within readRetry; new streams and resumes work again once Redis is back`,
      async () => {
        const options = { readRetry: READ_RETRY, heartbeatInterval: 200 };
        const a = await fx.instance(options, clientOptions);
        const b = await fx.instance(options, clientOptions);
        const { live, source$, aborted } = controlled();
        const key = { owner: 'alice', streamId: a.createStreamId() };
        const onA: string[] = [];
        const onB: string[] = [];
        let endedA = false;
        let endedB = false;
        fx.subscriptions.push(
          a.start(key, source$, { heartbeat: false }).subscribe({
            next: (f) => onA.push(f),
            complete: () => (endedA = true),
          }),
        );
        await eventually(() => live.observed, 'the model call to start');
        live.next(delta('one'));
        await waitUntil('frame 1 on A', () => Promise.resolve(onA.length >= 1));
        fx.subscriptions.push(
          b.resume(key, { lastEventId: '0', heartbeat: false }).subscribe({
            next: (f) => onB.push(f),
            complete: () => (endedB = true),
          }),
        );
        await waitUntil('frame 1 on B', () => Promise.resolve(onB.length >= 1));

        // The model keeps talking through the outage, as a real one would.
        const talking = setInterval(() => {
          if (!aborted()) live.next(delta('more'));
        }, 50);
        try {
          await fx.server.control?.stop('SIGKILL');
          const down = Date.now();
          const stopped = await msUntil(down, 'the model call to stop', aborted);
          const toldA = await msUntil(down, 'the reader on A to end', () => endedA);
          const toldB = await msUntil(down, 'the reader on B to end', () => endedB);
          expect(stopped).toBeLessThan(Math.max(READ_RETRY, 1000) + SLACK_MS);
          expect(toldA).toBeLessThan(READ_RETRY + SLACK_MS);
          expect(toldB).toBeLessThan(READ_RETRY + SLACK_MS);
          // Whole frames, then the protocol's error event, last.
          for (const frames of [onA, onB]) {
            const got = ids(frames);
            expect(got[got.length - 1]).toBe('error');
            expect(got.slice(0, -1).map(Number)).toEqual(got.slice(0, -1).map((_, i) => i + 1));
          }
          expect(onB.join('')).toContain('The stream cannot be read right now.');
          const rest = down + OUTAGE_MS - Date.now();
          await new Promise((resolve) => setTimeout(resolve, Math.max(0, rest)));
        } finally {
          clearInterval(talking);
          await fx.server.control?.start();
        }
        const up = Date.now(); // the server answers PING again

        // A new stream on A, followed on B, works soon after Redis is back.
        const next = controlled();
        const key2 = { owner: 'alice', streamId: a.createStreamId() };
        const again: string[] = [];
        const newStream = await msUntil(up, 'a new stream to start', async () => {
          again.length = 0;
          const attempt = a
            .start(key2, next.source$, { heartbeat: false })
            .subscribe((f) => again.push(f));
          await eventually(() => next.live.observed || again.length > 0, 'an answer').catch(
            () => undefined,
          );
          if (next.live.observed) fx.subscriptions.push(attempt);
          else attempt.unsubscribe(); // refused (the error event) or no answer: try again
          return next.live.observed;
        });
        next.live.next(delta('back'));
        await waitUntil('the new frame on A', () =>
          Promise.resolve(again.join('').includes('back')),
        );
        const onB2: string[] = [];
        const resumed = await msUntil(up, 'a resume on B', async () => {
          onB2.length = 0;
          const attempt = b.resume(key2, { heartbeat: false }).subscribe({
            next: (f) => onB2.push(f),
            error: () => undefined,
          });
          await new Promise((resolve) => setTimeout(resolve, 300));
          attempt.unsubscribe();
          return onB2.join('').includes('back');
        });
        expect(newStream).toBeLessThan(SLACK_MS);
        expect(resumed).toBeLessThan(SLACK_MS);

        // The stream the outage stopped is not left "running": its end was written once
        // Redis answered, so a resume is told at once instead of waiting for the ttl.
        const settled = await msUntil(up, 'the stopped stream to be ended', async () => {
          try {
            return !(await b.has(key));
          } catch {
            return false;
          }
        });
        expect(settled).toBeLessThan(SLACK_MS);
      },
      60_000,
    );
  }
});
