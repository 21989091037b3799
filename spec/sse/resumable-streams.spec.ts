import { createServer, type IncomingMessage, type Server } from 'node:http';
import { serve } from '@hono/node-server';
import { DefaultChatTransport, readUIMessageStream, type UIMessage } from 'ai';
import { Hono } from 'hono';
import { Observable, Subject } from 'rxjs';
import type { ChatChunk } from '../../lib/core/chat-chunk';
import { ChatClient } from '../../lib/client/chat-client';
import { InvalidOptionsError } from '../../lib/errors/invalid-options-error';
import { pipeToNodeResponse, ResumableStreams, toWebResponse } from '../../lib/sse';
import { MockChatModel } from '../../lib/testing';
import {
  close,
  eventually,
  framesText,
  listen,
  parseSse,
  readEvents,
} from './support/sse-test-kit';

const delta = (text: string): ChatChunk => ({ type: 'text-delta', text });
/** The stream `streamId` of the test's usual owner. */
const key = (streamId: string) => ({ owner: 'alice', streamId });
/** The owner a request speaks for: the `x-user` header (a stand-in for authentication). */
const ownerOf = (req: IncomingMessage): string => (req.headers['x-user'] as string) ?? 'alice';
let closedResponses = 0;

/** A Node server: POST /chat/:id starts stream :id from `source()`, GET /chat/:id/stream resumes it. */
function resumableServer(
  streams: ResumableStreams,
  source: () => Observable<ChatChunk>,
  protocol: 'rx-advisors' | 'ai-sdk-ui' = 'rx-advisors',
): Server {
  return createServer((req, res) => {
    res.on('close', () => closedResponses++);
    const [, , streamId, tail] = (req.url ?? '').split('/');
    if (req.method === 'POST') {
      // The AI SDK posts to /chat with the chat id in the JSON body.
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (part: string) => (body += part));
      req.on('end', () => {
        const id = streamId ?? (JSON.parse(body) as { id: string }).id;
        pipeToNodeResponse(source(), res, {
          protocol,
          heartbeat: false,
          resumable: { streams, owner: ownerOf(req), streamId: id },
        });
      });
    } else if (tail === 'stream') {
      streams.resumeToNodeResponse({ owner: ownerOf(req), streamId }, req, res);
    }
  });
}

describe('ResumableStreams', () => {
  let streams: ResumableStreams;
  const servers: Server[] = [];
  beforeEach(() => {
    closedResponses = 0;
    streams = new ResumableStreams({ maxBufferedFrames: 100, ttl: 60_000 });
  });
  afterEach(async () => {
    streams.clear();
    await Promise.all(servers.splice(0).map(close));
  });

  it('a client that reconnects with Last-Event-ID gets exactly the rest of a running stream', async () => {
    const live = new Subject<ChatChunk>();
    let tornDown = false;
    const source$ = new Observable<ChatChunk>((subscriber) => {
      const subscription = live.subscribe(subscriber);
      return () => {
        tornDown = true;
        subscription.unsubscribe();
      };
    });
    const server = resumableServer(streams, () => source$);
    servers.push(server);
    const url = await listen(server);

    const first = fetch(`${url}/chat/s1`, { method: 'POST' });
    await eventually(() => live.observed, 'the stream to start');
    live.next(delta('one'));
    live.next(delta('two'));
    const seen = await readEvents(await first, (events) => events.length >= 2);
    expect(seen.map((event) => event.id)).toEqual(['1', '2']);

    // The client is gone (the server saw its response close); the stream goes on, buffered.
    await eventually(() => closedResponses === 1, 'the server to see the client go');
    live.next(delta('three'));
    live.next(delta('four'));
    expect(tornDown).toBe(false);

    const resumed = await fetch(`${url}/chat/s1/stream`, { headers: { 'last-event-id': '2' } });
    expect(resumed.status).toBe(200);
    expect(resumed.headers.get('content-type')).toBe('text/event-stream');
    const reading = readEvents(resumed);
    await eventually(() => live.observers.length > 0, 'the resumed client to follow');
    live.next(delta('five'));
    live.next({ type: 'finish', reason: 'stop' });
    live.complete();
    const rest = await reading;
    expect(
      rest.map(
        (event) =>
          `${event.id}:${event.event}:${event.event === 'text-delta' ? JSON.parse(event.data).text : ''}`,
      ),
    ).toEqual([
      '3:text-delta:three',
      '4:text-delta:four',
      '5:text-delta:five',
      '6:finish:',
      '7:done:',
    ]);
  });

  it('a finished stream stays resumable: a reconnect without Last-Event-ID replays it all', async () => {
    const client = ChatClient.create(MockChatModel.script([{ text: 'Once only' }]));
    const server = resumableServer(streams, () => client.prompt('hi').stream().chunks());
    servers.push(server);
    const url = await listen(server);

    const original = parseSse(
      await (await fetch(`${url}/chat/s2`, { method: 'POST' })).text(),
    ).events;
    const replay = parseSse(await (await fetch(`${url}/chat/s2/stream`)).text()).events;
    expect(replay).toEqual(original);
    const tail = parseSse(
      await (await fetch(`${url}/chat/s2/stream`, { headers: { 'last-event-id': '3' } })).text(),
    ).events;
    expect(tail).toEqual(original.slice(3));
    expect(await streams.has(key('s2'))).toBe(true);
    expect(await streams.has({ owner: 'mallory', streamId: 's2' })).toBe(false);
  });

  it('answers 204 for an unknown stream', async () => {
    const server = resumableServer(streams, () => new Subject<ChatChunk>());
    servers.push(server);
    const url = await listen(server);
    const response = await fetch(`${url}/chat/nope/stream`);
    expect(response.status).toBe(204);
    expect(await response.text()).toBe('');
  });

  it('answers a resume the bounded buffer cannot serve with one clean error event', async () => {
    streams = new ResumableStreams({ maxBufferedFrames: 3 });
    const chunks = ['a', 'b', 'c', 'd', 'e'].map(delta);
    const source$ = new Observable<ChatChunk>((subscriber) => {
      chunks.forEach((chunk) => subscriber.next(chunk));
      subscriber.complete();
    });
    await framesText(streams.start(key('s3'), source$, { heartbeat: false })); // 6 events; 4..6 kept

    const gap = parseSse(await framesText(streams.resume(key('s3'), { lastEventId: '2' }))).events;
    expect(gap).toEqual([
      {
        id: undefined,
        event: 'error',
        data: JSON.stringify({
          message: 'Cannot resume after event 2: events up to 3 are no longer buffered.',
        }),
      },
    ]);
    const ok = parseSse(await framesText(streams.resume(key('s3'), { lastEventId: 3 }))).events;
    expect(ok.map((event) => event.id)).toEqual(['4', '5', '6']);
    for (const bad of ['abc', '-1', '1.5', '99']) {
      const events = parseSse(
        await framesText(streams.resume(key('s3'), { lastEventId: bad })),
      ).events;
      expect(events.map((event) => event.event)).toEqual(['error']);
    }
  });

  it("resumes an 'ai-sdk-ui' stream through the AI SDK's own reconnectToStream", async () => {
    const live = new Subject<ChatChunk>();
    const server = resumableServer(streams, () => live, 'ai-sdk-ui');
    servers.push(server);
    const url = await listen(server);
    const transport = new DefaultChatTransport({ api: `${url}/chat` });

    const aborted = new AbortController();
    const stream = await transport.sendMessages({
      trigger: 'submit-message',
      chatId: 'c1',
      messageId: undefined,
      messages: [],
      abortSignal: aborted.signal,
    });
    live.next(delta('Hello'));
    const reader = stream.getReader();
    const seen: string[] = [];
    while (!seen.includes('text-delta')) seen.push((await reader.read()).value!.type);
    aborted.abort(); // the page reloads
    await reader.cancel().catch(() => undefined);
    live.next(delta(' again'));
    live.next({ type: 'finish', reason: 'stop' });
    live.complete();

    const resumed = await transport.reconnectToStream({ chatId: 'c1' });
    let message: UIMessage | undefined;
    for await (const snapshot of readUIMessageStream({ stream: resumed!, terminateOnError: true }))
      message = snapshot;
    expect(message!.parts).toEqual([
      { type: 'step-start' },
      { type: 'text', text: 'Hello again', state: 'done' },
    ]);
    expect(await transport.reconnectToStream({ chatId: 'unknown' })).toBeNull();
  });

  it('resumes through toWebResponse + resumeToWebResponse with Hono', async () => {
    const live = new Subject<ChatChunk>();
    const app = new Hono();
    app.post('/chat/:id', (c) =>
      toWebResponse(live, {
        heartbeat: false,
        resumable: { streams, owner: 'alice', streamId: c.req.param('id') },
      }),
    );
    app.get('/chat/:id/stream', (c) =>
      streams.resumeToWebResponse(key(c.req.param('id')), c.req.raw),
    );
    const { url, server } = await new Promise<{ url: string; server: Server }>((resolve) => {
      const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) =>
        resolve({ url: `http://127.0.0.1:${info.port}`, server: s as Server }),
      );
    });
    servers.push(server);

    const first = fetch(`${url}/chat/h1`, { method: 'POST' });
    const response = await first;
    const reading = readEvents(response, (events) => events.length >= 1);
    await eventually(() => live.observed, 'the stream to start');
    live.next(delta('one'));
    expect((await reading).map((event) => event.id)).toEqual(['1']);
    live.next(delta('two'));
    live.complete();

    const rest = parseSse(
      await (await fetch(`${url}/chat/h1/stream`, { headers: { 'last-event-id': '1' } })).text(),
    ).events;
    expect(rest.map((event) => `${event.id}:${event.event}`)).toEqual(['2:text-delta', '3:done']);
    expect((await fetch(`${url}/chat/zz/stream`)).status).toBe(204);
  });

  it('delete() aborts a running stream and ends its clients; clear() ends them all', async () => {
    let tornDown = 0;
    const source$ = new Observable<ChatChunk>(() => () => tornDown++);
    const ended: string[] = [];
    const received: string[] = [];
    streams.start(key('d1'), source$).subscribe({
      next: (frame) => received.push(frame),
      complete: () => ended.push('d1'),
    });
    streams.start(key('d2'), source$).subscribe({ complete: () => ended.push('d2') });
    expect(streams.size).toBe(2);
    expect(await streams.delete({ owner: 'mallory', streamId: 'd1' })).toBe(false);
    expect(ended).toEqual([]);
    expect(await streams.delete(key('d1'))).toBe(true);
    expect(await streams.delete(key('d1'))).toBe(false);
    expect(ended).toEqual(['d1']);
    expect(parseSse(received.join('')).events).toEqual([
      {
        id: undefined,
        event: 'error',
        data: JSON.stringify({ message: 'The stream was ended on the server.' }),
      },
    ]);
    streams.clear();
    expect(ended).toEqual(['d1', 'd2']);
    expect(tornDown).toBe(2);
    expect(streams.size).toBe(0);
  });

  it('starting a stream under an id in use ends the previous one; maxStreams ends the oldest', async () => {
    streams = new ResumableStreams({ maxStreams: 2 });
    let tornDown = 0;
    const source$ = new Observable<ChatChunk>(() => () => tornDown++);
    streams.start(key('a'), source$).subscribe();
    streams.start(key('a'), source$).subscribe();
    expect(tornDown).toBe(1);
    streams.start(key('b'), source$).subscribe();
    streams.start(key('c'), source$).subscribe();
    expect(tornDown).toBe(2);
    expect(await Promise.all(['a', 'b', 'c'].map((id) => streams.has(key(id))))).toEqual([
      false,
      true,
      true,
    ]);
  });

  it.each([
    [{ maxBufferedFrames: 0 }, 'maxBufferedFrames'],
    [{ maxStreams: 1.5 }, 'maxStreams'],
    [{ ttl: -1 }, 'ttl'],
    [{ ttl: Infinity }, 'ttl'],
  ])('rejects %j with an InvalidOptionsError naming %s', (options, option) => {
    let caught: unknown;
    try {
      new ResumableStreams(options);
    } catch (error) {
      caught = error;
    }
    expect(InvalidOptionsError.isInstance(caught) && caught.option).toBe(option);
  });

  it('rejects an empty stream id', () => {
    expect(() => streams.start(key(''), new Subject<ChatChunk>())).toThrow(InvalidOptionsError);
  });
});
