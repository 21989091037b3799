// ResumableStreams over an asynchronous store, shared by two "processes" (two fronts): the
// store contract a Redis store will implement (docs/sse.md, "Writing a store").
import { createServer, type Server } from 'node:http';
import { Observable, Subject, switchMap, throwError, timer } from 'rxjs';
import type { ChatChunk } from '../../lib/core/chat-chunk';
import {
  InMemoryResumableStreamStore,
  pipeToNodeResponse,
  ResumableStreams,
  type ResumableStreamInfo,
  type ResumableStreamKey,
  type ResumableStreamStore,
} from '../../lib/sse';
import {
  close,
  eventually,
  framesText,
  listen,
  parseSse,
  readEvents,
} from './support/sse-test-kit';

const later = <T>(value: T): Promise<T> =>
  new Promise((resolve) => setTimeout(() => resolve(value), 2));

/** Every answer arrives later, as over a network; the frames stay in one shared memory. */
class AsyncStore implements ResumableStreamStore {
  readonly inner = new InMemoryResumableStreamStore();
  readonly appends: string[] = [];
  create(key: ResumableStreamKey, info: ResumableStreamInfo): Promise<void> {
    return later(undefined).then(() => this.inner.create(key, info));
  }
  get(key: ResumableStreamKey): Promise<ResumableStreamInfo | undefined> {
    return later(this.inner.get(key));
  }
  append(key: ResumableStreamKey, frame: string): Promise<void> {
    this.appends.push(frame);
    // Writes are queued in call order, as a Redis connection pipelines them.
    this.inner.append(key, frame);
    return later(undefined);
  }
  complete(key: ResumableStreamKey): Promise<void> {
    this.inner.complete(key);
    return later(undefined);
  }
  read(key: ResumableStreamKey, after: number): Observable<string> {
    return timer(1).pipe(switchMap(() => this.inner.read(key, after)));
  }
  cancel(key: ResumableStreamKey): Promise<boolean> {
    return later(this.inner.cancel(key));
  }
  ended(key: ResumableStreamKey): Observable<void> {
    return this.inner.ended(key);
  }
}

const delta = (text: string): ChatChunk => ({ type: 'text-delta', text });

describe('ResumableStreams over an asynchronous store', () => {
  const servers: Server[] = [];
  const stores: AsyncStore[] = [];
  const newStore = (): AsyncStore => {
    const store = new AsyncStore();
    stores.push(store);
    return store;
  };
  afterEach(async () => {
    for (const store of stores.splice(0)) store.inner.clear(); // stops the ttl timers
    await Promise.all(servers.splice(0).map(close));
  });

  it('starts on one front, resumes on another with Last-Event-ID, and cancels across them', async () => {
    const store = newStore();
    const processA = new ResumableStreams({ store });
    const processB = new ResumableStreams({ store });
    const live = new Subject<ChatChunk>();
    let tornDown = false;
    const source$ = new Observable<ChatChunk>((subscriber) => {
      const subscription = live.subscribe(subscriber);
      return () => {
        tornDown = true;
        subscription.unsubscribe();
      };
    });
    const owner = 'alice';
    const streamId = processA.createStreamId();
    const server = createServer((req, res) => {
      if (req.method === 'POST') {
        pipeToNodeResponse(source$, res, {
          heartbeat: false,
          resumable: { streams: processA, owner, streamId },
        });
      } else {
        processB.resumeToNodeResponse({ owner, streamId: req.url!.slice(1) }, req, res, {
          heartbeat: false,
        });
      }
    });
    servers.push(server);
    const url = await listen(server);

    const first = await fetch(url, { method: 'POST' });
    await eventually(() => live.observed, 'the stream to start');
    live.next(delta('one'));
    live.next(delta('two'));
    expect((await readEvents(first, (events) => events.length >= 2)).map((e) => e.id)).toEqual([
      '1',
      '2',
    ]);
    live.next(delta('three'));

    const resumed = await fetch(`${url}/${streamId}`, { headers: { 'last-event-id': '1' } });
    expect(resumed.status).toBe(200);
    const reading = readEvents(resumed);
    await eventually(() => store.appends.length === 3, 'the third frame to be stored');
    await new Promise((resolve) => setTimeout(resolve, 50)); // the resumed client reads 2 and 3
    // Cancelled through the other front: the model request of process A is aborted.
    expect(await processB.delete({ owner, streamId })).toBe(true);
    const events = await reading;
    expect(events.map((event) => event.id ?? event.event)).toEqual(['2', '3', 'error']);
    expect(tornDown).toBe(true);
    expect((await fetch(`${url}/${streamId}`)).status).toBe(204);
    expect((await fetch(`${url}/unknown`)).status).toBe(204);
  });

  it("a store's own failure reaches the client as the safe error event, never its text", async () => {
    const store = newStore();
    store.read = () => throwError(() => new Error('redis://admin:hunter2@10.0.0.5 refused'));
    const streams = new ResumableStreams({ store });
    const text = await framesText(
      streams.start({ owner: 'o', streamId: 's' }, new Subject<ChatChunk>(), { heartbeat: false }),
    );
    expect(text).not.toContain('hunter2');
    expect(parseSse(text).events).toEqual([
      {
        id: undefined,
        event: 'error',
        data: JSON.stringify({ message: 'The stream cannot be read right now.' }),
      },
    ]);
    streams.clear();
  });

  it('rejects a store together with in-memory bounds', () => {
    expect(() => new ResumableStreams({ store: new AsyncStore(), ttl: 5 })).toThrow(/store/);
  });
});
