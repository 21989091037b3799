import { catchError, defer, EMPTY, type Observable } from 'rxjs';
import type { ChatChunk } from '../../lib/core/chat-chunk';
import { ResumableStreams } from '../../lib/sse';
import { createTestScheduler } from '../support/test-scheduler';

const chunks: Record<string, ChatChunk> = {
  a: { type: 'text-delta', text: 'a' },
  b: { type: 'text-delta', text: 'b' },
  c: { type: 'text-delta', text: 'c' },
  d: { type: 'text-delta', text: 'd' },
};
const event = (id: number, chunk: ChatChunk): string =>
  `id: ${id}\nevent: ${chunk.type}\ndata: ${JSON.stringify(chunk)}\n\n`;
const frames = {
  A: event(1, chunks.a),
  B: event(2, chunks.b),
  C: event(3, chunks.c),
  D: event(4, chunks.d),
  h: ': ping\n\n',
};

const key = (streamId: string) => ({ owner: 'alice', streamId });

/** A resume evaluated when it is subscribed (at its place in virtual time); gone = empty. */
function resumeLater(
  streams: ResumableStreams,
  streamId: string,
  lastEventId: string,
  heartbeat: number | false = false,
): Observable<string> {
  return defer(() => streams.resume(key(streamId), { lastEventId, heartbeat })).pipe(
    catchError(() => EMPTY),
  );
}

describe('ResumableStreams (marbles)', () => {
  it('keeps the model running without clients for ttl, then aborts it', () => {
    createTestScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const streams = new ResumableStreams({ ttl: 5 });
      const source = cold('-a-b-c-d-', chunks);
      expectObservable(streams.start(key('s'), source, { heartbeat: false }), '^-!').toBe(
        '-A-',
        frames,
      );
      // The client left at 2; nobody came back within 5 ms: the model is unsubscribed at 7.
      expectSubscriptions(source.subscriptions).toBe('^------!');
    });
  });

  it('a client that comes back within ttl gets what it missed, then the live frames', () => {
    createTestScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const streams = new ResumableStreams({ ttl: 5 });
      const source = cold('-a-b-c-d|', chunks);
      expectObservable(streams.start(key('s'), source, { heartbeat: false }), '^-!').toBe(
        '-A-',
        frames,
      );
      expectObservable(resumeLater(streams, 's', '1'), '----^').toBe('----BC-D(E|)', {
        ...frames,
        E: `id: 5\nevent: done\ndata: {}\n\n`,
      });
      expectSubscriptions(source.subscriptions).toBe('^-------!');
    });
  });

  it('heartbeats are per connection: neither stored nor numbered; a resumed client gets its own', () => {
    createTestScheduler().run(({ cold, expectObservable }) => {
      const streams = new ResumableStreams({ ttl: 50 });
      const source = cold('-a---b', chunks);
      expectObservable(streams.start(key('s'), source, { heartbeat: 2 }), '^------!').toBe(
        '-Ah-hBh',
        frames,
      );
      expectObservable(resumeLater(streams, 's', '0', 5), '--------^-----!').toBe(
        '--------(AB)-h',
        frames,
      );
    });
  });

  it('a finished stream stays resumable for ttl after its last client left, then is gone', () => {
    createTestScheduler().run(({ cold, expectObservable }) => {
      const streams = new ResumableStreams({ ttl: 10 });
      const source = cold('-a|', chunks);
      const done = `id: 2\nevent: done\ndata: {}\n\n`;
      expectObservable(streams.start(key('s'), source, { heartbeat: false })).toBe('-A(D|)', {
        ...frames,
        D: done,
      });
      expectObservable(resumeLater(streams, 's', '1'), '-----^').toBe('-----(D|)', { D: done });
      // Every visit restarts the ttl: the last client left at 13, so the stream is gone at 23.
      expectObservable(resumeLater(streams, 's', '0'), '-------------^').toBe(
        '-------------(AD|)',
        { ...frames, D: done },
      );
      expectObservable(resumeLater(streams, 's', '0'), '-----------------------------^').toBe(
        '-----------------------------|',
      );
    });
  });

  it('a stream nobody subscribes to is dropped after ttl without ever calling the model', () => {
    createTestScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const streams = new ResumableStreams({ ttl: 3 });
      const source = cold('-a|', chunks);
      streams.start(key('s'), source);
      expectObservable(resumeLater(streams, 's', '0'), '----^').toBe('----|');
      expectSubscriptions(source.subscriptions).toBe([]);
    });
  });
});
