// Ownership, unguessable ids and the per-owner limit of ResumableStreams (issue 13.11).
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { NEVER, Observable, of } from 'rxjs';
import type { ChatChunk } from '../../lib/core/chat-chunk';
import {
  pipeToNodeResponse,
  ResumableStreamError,
  ResumableStreamLimitError,
  ResumableStreams,
  STREAM_ID_HEADER,
} from '../../lib/sse';
import { close, framesText, listen } from './support/sse-test-kit';

const ownerOf = (req: IncomingMessage): string => req.headers['x-user'] as string;

/** POST / starts a stream for the x-user; GET /<id> resumes it; DELETE /<id> cancels it. */
function ownedServer(streams: ResumableStreams, source: () => Observable<ChatChunk>): Server {
  return createServer((req, res) => {
    const owner = ownerOf(req);
    const streamId = (req.url ?? '/').slice(1);
    if (req.method === 'POST') {
      try {
        pipeToNodeResponse(source(), res, {
          heartbeat: false,
          resumable: { streams, owner, ...(streamId === '' ? {} : { streamId }) },
        });
      } catch (error) {
        res.writeHead(ResumableStreamLimitError.isInstance(error) ? 429 : 500).end();
      }
    } else if (req.method === 'DELETE') {
      void streams
        .delete({ owner, streamId })
        .then((found) => res.writeHead(found ? 204 : 404).end());
    } else {
      streams.resumeToNodeResponse({ owner, streamId }, req, res);
    }
  });
}

describe('ResumableStreams ownership', () => {
  let streams: ResumableStreams;
  const servers: Server[] = [];
  const serve = async (source: () => Observable<ChatChunk>): Promise<string> => {
    const server = ownedServer(streams, source);
    servers.push(server);
    return listen(server);
  };
  beforeEach(() => {
    streams = new ResumableStreams({ maxStreamsPerOwner: 2 });
  });
  afterEach(async () => {
    streams.clear();
    await Promise.all(servers.splice(0).map(close));
  });

  it('only the owner can resume or cancel a stream; another owner reads it as unknown', async () => {
    let tornDown = false;
    const url = await serve(() => new Observable<ChatChunk>(() => () => (tornDown = true)));
    const started = await fetch(url, { method: 'POST', headers: { 'x-user': 'alice' } });
    const streamId = started.headers.get(STREAM_ID_HEADER)!;
    await started.body!.cancel();

    const asMallory = { headers: { 'x-user': 'mallory' } };
    expect((await fetch(`${url}/${streamId}`, asMallory)).status).toBe(204);
    expect((await fetch(`${url}/${streamId}`, { ...asMallory, method: 'DELETE' })).status).toBe(
      404,
    );
    expect(tornDown).toBe(false);
    expect(await streams.has({ owner: 'alice', streamId })).toBe(true);

    const asAlice = { headers: { 'x-user': 'alice' } };
    expect((await fetch(`${url}/${streamId}`, { ...asAlice, method: 'DELETE' })).status).toBe(204);
    expect(tornDown).toBe(true);
  });

  it('the same id under another owner is another stream: it neither replaces nor reads the first', async () => {
    const source$ = of<ChatChunk[]>({ type: 'text-delta', text: 'for alice' });
    await framesText(
      streams.start({ owner: 'alice', streamId: 'chat-1' }, source$, { heartbeat: false }),
    );
    const other$ = of<ChatChunk[]>({ type: 'text-delta', text: 'for mallory' });
    await framesText(
      streams.start({ owner: 'mallory', streamId: 'chat-1' }, other$, { heartbeat: false }),
    );
    const alice = await framesText(
      streams.resume({ owner: 'alice', streamId: 'chat-1' }, { heartbeat: false }),
    );
    expect(alice).toContain('for alice');
    expect(alice).not.toContain('for mallory');
  });

  it('ids are unguessable by default: 128 random bits, base64url, sent in x-stream-id', async () => {
    const url = await serve(() => of<ChatChunk[]>({ type: 'finish', reason: 'stop' }));
    const ids = new Set<string>();
    for (let i = 0; i < 5; i++) {
      const response = await fetch(url, { method: 'POST', headers: { 'x-user': `u${i}` } });
      await response.text();
      ids.add(response.headers.get(STREAM_ID_HEADER)!);
    }
    expect(ids.size).toBe(5);
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(streams.createStreamId()).not.toBe(streams.createStreamId());
  });

  it('maxStreamsPerOwner: one more running stream is refused (429 here); other owners are not affected', async () => {
    const url = await serve(() => NEVER);
    const post = (user: string) => fetch(url, { method: 'POST', headers: { 'x-user': user } });
    const running = [await post('alice'), await post('alice')];
    expect(running.map((response) => response.status)).toEqual([200, 200]);
    expect((await post('alice')).status).toBe(429);
    const bob = await post('bob');
    expect(bob.status).toBe(200);
    for (const response of [...running, bob]) await response.body!.cancel();
    expect(streams.size).toBe(3);
  });

  it("a finished stream makes room: the owner's oldest finished stream is ended instead", async () => {
    const done$ = of<ChatChunk[]>({ type: 'finish', reason: 'stop' });
    const key = (streamId: string) => ({ owner: 'alice', streamId });
    await framesText(streams.start(key('old'), done$, { heartbeat: false }));
    streams.start(key('running'), NEVER, { heartbeat: false }).subscribe();
    streams.start(key('new'), NEVER, { heartbeat: false }).subscribe();
    expect(await streams.has(key('old'))).toBe(false);
    expect(await streams.has(key('running'))).toBe(true);
    expect(() => streams.start(key('one-more'), NEVER)).toThrow(ResumableStreamLimitError);
  });

  it("one owner cannot evict another's streams through the global maxStreams", () => {
    streams = new ResumableStreams({ maxStreams: 3, maxStreamsPerOwner: 2 });
    streams.start({ owner: 'bob', streamId: 'b' }, NEVER).subscribe();
    for (const streamId of ['1', '2', '3', '4']) {
      try {
        streams.start({ owner: 'mallory', streamId }, NEVER).subscribe();
      } catch {
        // refused: mallory is at her limit
      }
    }
    expect(streams.size).toBe(3);
    return expect(streams.has({ owner: 'bob', streamId: 'b' })).resolves.toBe(true);
  });

  it('resume() of a stream the owner does not have fails with ResumableStreamError not-found', async () => {
    const caught = await framesText(streams.resume({ owner: 'alice', streamId: 'none' })).catch(
      (error: unknown) => error,
    );
    expect(ResumableStreamError.isInstance(caught) && caught.reason).toBe('not-found');
  });

  it('rejects an empty owner or stream id', () => {
    expect(() => streams.start({ owner: '', streamId: 'x' }, NEVER)).toThrow(/owner/);
    expect(() => streams.start({ owner: 'a', streamId: '' }, NEVER)).toThrow(/streamId/);
  });
});
