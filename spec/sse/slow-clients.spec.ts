// Slow and non-reading clients are bounded by bytes and by time, not only by frame count
// (issue 13.12), over a real HTTP server with a raw socket that never reads.
import { createServer, type Server, type ServerResponse } from 'node:http';
import { connect, type Socket } from 'node:net';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { concat, from, interval, map, mergeMap, Observable, take, timer } from 'rxjs';
import type { ChatChunk } from '../../lib/core/chat-chunk';
import {
  pipeToNodeResponse,
  ResumableStreams,
  SlowClientError,
  toWebResponse,
  type PipeToNodeResponseOptions,
} from '../../lib/sse';
import { close, eventually, framesText, listen, parseSse } from './support/sse-test-kit';

const BIG = 'x'.repeat(100 * 1024); // a 100 KB text delta

const bigChunks = (count: number): ChatChunk[] =>
  Array.from({ length: count }, () => ({ type: 'text-delta', text: BIG }));

/** What the server saw of one response. */
interface Seen {
  emitted: number;
  tornDown: boolean;
  closed: boolean;
  res?: ServerResponse;
}

/** Serves `count` big deltas, one per ms, with `options`; records what happened. */
async function bigDeltaServer(
  servers: Server[],
  count: number,
  options: PipeToNodeResponseOptions,
): Promise<{ port: number; seen: Seen }> {
  const seen: Seen = { emitted: 0, tornDown: false, closed: false };
  const server = createServer((_req, res) => {
    seen.res = res;
    res.on('close', () => (seen.closed = true));
    const chunks$ = new Observable<ChatChunk>((subscriber) => {
      let completed = false;
      const subscription = interval(1)
        .pipe(
          take(count),
          map((): ChatChunk => ({ type: 'text-delta', text: BIG })),
        )
        .subscribe({
          next: (chunk) => {
            seen.emitted++;
            subscriber.next(chunk);
          },
          complete: () => {
            completed = true;
            subscriber.complete();
          },
        });
      return () => {
        if (!completed) seen.tornDown = true;
        subscription.unsubscribe();
      };
    });
    pipeToNodeResponse(chunks$, res, { heartbeat: false, ...options });
  });
  servers.push(server);
  const url = await listen(server);
  return { port: Number(new URL(url).port), seen };
}

/** A client that sends a request and never reads the response. */
function nonReadingClient(port: number, sockets: Socket[]): Socket {
  const socket = connect(port, '127.0.0.1', () => {
    socket.write('GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    socket.pause();
  });
  socket.on('error', () => undefined);
  sockets.push(socket);
  return socket;
}

describe('slow clients', () => {
  const servers: Server[] = [];
  const sockets: Socket[] = [];
  afterEach(async () => {
    for (const socket of sockets.splice(0)) socket.destroy();
    await Promise.all(servers.splice(0).map(close));
  });

  describe('pipeToNodeResponse', () => {
    it('disconnects a non-reading client once it is maxPendingBytes behind, long before maxPendingFrames', async () => {
      // 300 frames of 100 KB = 30 MB; the frame bound (1000) alone would hold all of it.
      const { port, seen } = await bigDeltaServer(servers, 300, { maxPendingBytes: 2 << 20 });
      nonReadingClient(port, sockets);
      await eventually(() => seen.closed, 'the server to end the connection');
      expect(seen.tornDown).toBe(true); // the model stream was unsubscribed
      expect(seen.emitted).toBeLessThan(300);
    }, 15_000);

    it('the default byte bound (4 Mi characters) ends a client that reads nothing', async () => {
      const { port, seen } = await bigDeltaServer(servers, 900, {});
      nonReadingClient(port, sockets);
      await eventually(() => seen.closed, 'the server to end the connection');
      expect(seen.tornDown).toBe(true);
    }, 15_000);

    it('ends a connection that stays unwritable past writeTimeout, also after the stream finished', async () => {
      // 40 frames (4 MB) fit in the byte bound: only the write timeout can end this one.
      const { port, seen } = await bigDeltaServer(servers, 40, {
        maxPendingBytes: 64 << 20,
        writeTimeout: 300,
      });
      nonReadingClient(port, sockets);
      await eventually(() => seen.emitted === 40, 'the stream to finish');
      const finishedAt = Date.now();
      await eventually(() => seen.closed, 'the server to end the connection');
      expect(Date.now() - finishedAt).toBeLessThan(3000);
      expect(seen.res!.destroyed).toBe(true);
    }, 15_000);

    it('a finished resumable stream is not held for a reader that never reads: writeTimeout, then ttl', async () => {
      const streams = new ResumableStreams({ ttl: 100 });
      const key = { owner: 'alice', streamId: 'stuck' };
      const { port, seen } = await bigDeltaServer(servers, 40, {
        maxPendingBytes: 64 << 20,
        writeTimeout: 200,
        resumable: { streams, ...key },
      });
      nonReadingClient(port, sockets);
      await eventually(() => seen.emitted === 40, 'the stream to finish');
      expect(await streams.has(key)).toBe(true);
      await eventually(() => seen.closed, 'the server to end the stuck connection');
      await new Promise((resolve) => setTimeout(resolve, 300)); // then the ttl passes
      expect(await streams.has(key)).toBe(false);
      streams.clear();
    }, 15_000);

    it('a client that reads keeps its connection: nothing is lost', async () => {
      const { port, seen } = await bigDeltaServer(servers, 30, { writeTimeout: 300 });
      const body = await (await fetch(`http://127.0.0.1:${port}/`)).text();
      expect(parseSse(body).events).toHaveLength(31);
      expect(seen.tornDown).toBe(false);
    });
  });

  describe('toWebResponse', () => {
    it('errors the body with SlowClientError (maxPendingBytes) and unsubscribes', async () => {
      let tornDown = false;
      const source$ = new Observable<ChatChunk>((subscriber) => {
        const subscription = from(bigChunks(50)).subscribe(subscriber);
        return () => {
          tornDown = true;
          subscription.unsubscribe();
        };
      });
      const reader = toWebResponse(source$, {
        heartbeat: false,
        maxPendingBytes: 1 << 20,
      }).body!.getReader();
      const caught = await reader.read().then(
        () => reader.read(),
        (error: unknown) => error,
      );
      expect(SlowClientError.isInstance(caught) && caught.limit).toBe('maxPendingBytes');
      expect(tornDown).toBe(true);
    });

    it('over real HTTP (Hono): a client that reads nothing is cut off at maxPendingBytes', async () => {
      let tornDown = false;
      let emitted = 0;
      const app = new Hono();
      app.get('/', () =>
        toWebResponse(
          new Observable<ChatChunk>((subscriber) => {
            const subscription = interval(1)
              .pipe(take(300))
              .subscribe(() => {
                emitted++;
                subscriber.next({ type: 'text-delta', text: BIG });
              });
            return () => {
              tornDown = true;
              subscription.unsubscribe();
            };
          }),
          { heartbeat: false, maxPendingBytes: 2 << 20 },
        ),
      );
      const port = await new Promise<number>((resolve) => {
        const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) =>
          resolve(info.port),
        ) as Server;
        servers.push(server);
      });
      nonReadingClient(port, sockets);
      await eventually(() => tornDown, 'the body to be cancelled');
      expect(emitted).toBeLessThan(300);
    }, 15_000);

    it('errors a body nobody reads past writeTimeout, also after the stream finished', async () => {
      // One frame at once, the rest (and the end) after the first read was served.
      const late$ = concat(from(bigChunks(1)), timer(10).pipe(mergeMap(() => bigChunks(3))));
      const reader = toWebResponse(late$, {
        heartbeat: false,
        writeTimeout: 50,
      }).body!.getReader();
      await reader.read(); // the first frame; the rest wait for a read that does not come
      await new Promise((resolve) => setTimeout(resolve, 150));
      const caught = await reader.read().then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(SlowClientError.isInstance(caught) && caught.limit).toBe('writeTimeout');
    });
  });

  describe('ResumableStreams buffers', () => {
    it('keep at most maxBufferedBytes characters per stream: older events are evicted', async () => {
      const streams = new ResumableStreams({ maxBufferedBytes: 250 * 1024 });
      const key = { owner: 'alice', streamId: 'big' };
      const frames = await framesText(
        streams.start(key, from(bigChunks(10)), { heartbeat: false }),
      );
      expect(parseSse(frames).events).toHaveLength(11); // the live client got everything
      const fromStart = parseSse(await framesText(streams.resume(key))).events;
      expect(fromStart).toEqual([
        expect.objectContaining({
          event: 'error',
          data: expect.stringContaining('no longer buffered'),
        }),
      ]);
      const tail = parseSse(await framesText(streams.resume(key, { lastEventId: 9 }))).events;
      expect(tail.map((event) => event.id)).toEqual(['10', '11']);
      streams.clear();
    });
  });
});
