import type { Server } from 'node:http';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { from, Observable, Subject } from 'rxjs';
import type { ChatChunk } from '../../lib/core/chat-chunk';
import { ChatClient } from '../../lib/client/chat-client';
import { InvalidOptionsError } from '../../lib/errors/invalid-options-error';
import { toWebResponse } from '../../lib/sse';
import { MockChatModel } from '../../lib/testing';
import { close, eventually, parseSse, readEvents } from './support/sse-test-kit';

async function serveHono(app: Hono): Promise<{ url: string; server: Server }> {
  return new Promise((resolve) => {
    const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) =>
      resolve({ url: `http://127.0.0.1:${info.port}`, server: server as Server }),
    );
  });
}

describe('toWebResponse', () => {
  let server: Server | undefined;
  afterEach(async () => {
    if (server !== undefined) await close(server);
    server = undefined;
  });

  it('is a Response with the SSE headers whose body streams the chunks', async () => {
    const client = ChatClient.create(MockChatModel.script([{ text: 'Hello web' }]));
    const response = toWebResponse(client.prompt('hi').stream().chunks(), {
      protocol: 'ai-sdk-ui',
      headers: { 'x-stream-id': 'w1' },
    });
    expect(response.status).toBe(200);
    const headers: Record<string, string> = {};
    response.headers.forEach((value, name) => (headers[name] = value));
    expect(headers).toEqual({
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
      'x-vercel-ai-ui-message-stream': 'v1',
      'x-stream-id': 'w1',
    });
    const { events } = parseSse(await response.text());
    expect(events.at(-1)!.data).toBe('[DONE]');
  });

  it('is pull-based: nothing is subscribed until the body is read', async () => {
    const model = MockChatModel.script([{ text: 'lazy' }]);
    const response = toWebResponse(ChatClient.create(model).prompt('hi').stream().chunks());
    await new Promise((resolve) => setImmediate(resolve));
    expect(model.calls).toBe(0);
    await response.text();
    expect(model.calls).toBe(1);
  });

  it('hands frames that arrive between reads over as one batch, in order', async () => {
    const chunks = new Subject<ChatChunk>();
    const response = toWebResponse(chunks, { heartbeat: false });
    const reader = response.body!.getReader();
    const first = reader.read();
    await eventually(() => chunks.observed, 'the first read to subscribe');
    chunks.next({ type: 'text-delta', text: 'a' });
    const decoder = new TextDecoder();
    expect(parseSse(decoder.decode((await first).value)).events.map((e) => e.id)).toEqual(['1']);
    chunks.next({ type: 'text-delta', text: 'b' });
    chunks.next({ type: 'text-delta', text: 'c' });
    chunks.complete();
    const batch = await reader.read(); // one read, three frames
    expect(parseSse(decoder.decode(batch.value)).events.map((e) => `${e.id}:${e.event}`)).toEqual([
      '2:text-delta',
      '3:text-delta',
      '4:done',
    ]);
    expect((await reader.read()).done).toBe(true);
  });

  it('cancelling the body unsubscribes the chunks', async () => {
    let tornDown = false;
    const source$ = new Observable<ChatChunk>((subscriber) => {
      subscriber.next({ type: 'text-delta', text: 'x' });
      return () => {
        tornDown = true;
      };
    });
    const reader = toWebResponse(source$).body!.getReader();
    await reader.read();
    expect(tornDown).toBe(false);
    await reader.cancel();
    expect(tornDown).toBe(true);
  });

  it('errors the body and unsubscribes when the reader falls more than maxPendingFrames behind', async () => {
    let tornDown = false;
    const source$ = new Observable<ChatChunk>((subscriber) => {
      for (let i = 0; i < 20 && !subscriber.closed; i++)
        subscriber.next({ type: 'text-delta', text: `${i}` });
      return () => {
        tornDown = true;
      };
    });
    const response = toWebResponse(source$, { maxPendingFrames: 3 });
    await expect(response.text()).rejects.toThrow('more than 3 frames behind');
    expect(tornDown).toBe(true);
  });

  it('rejects bad options', () => {
    let caught: unknown;
    try {
      toWebResponse(from<ChatChunk[]>([]), { maxPendingFrames: 1.5 });
    } catch (error) {
      caught = error;
    }
    expect(InvalidOptionsError.isInstance(caught) && caught.option).toBe('maxPendingFrames');
  });

  describe('with Hono over real HTTP', () => {
    it('streams an answer', async () => {
      const client = ChatClient.create(MockChatModel.script([{ text: 'Hello Hono' }]));
      const app = new Hono();
      app.post('/api/chat', async (c) => {
        const { message } = await c.req.json<{ message: string }>();
        return toWebResponse(client.prompt(message).stream().chunks());
      });
      let url: string;
      ({ url, server } = await serveHono(app));
      const response = await fetch(`${url}/api/chat`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ message: 'hi' }),
      });
      expect(response.headers.get('content-type')).toBe('text/event-stream');
      const events = await readEvents(response);
      expect(events.map((event) => event.event)).toEqual([
        'metadata',
        'text-delta',
        'text-delta',
        'finish',
        'done',
      ]);
      expect(events.map((event) => event.id)).toEqual(['1', '2', '3', '4', '5']);
    });

    it('a client that disconnects cancels the body, which tears the model stream down', async () => {
      let tornDown = 0;
      const model = MockChatModel.respond(
        () =>
          new Observable<ChatChunk>((subscriber) => {
            subscriber.next({ type: 'text-delta', text: 'thinking' });
            return () => tornDown++;
          }),
      );
      const client = ChatClient.create(model);
      const app = new Hono();
      app.get('/api/chat', () => toWebResponse(client.prompt('hi').stream().chunks()));
      let url: string;
      ({ url, server } = await serveHono(app));
      const events = await readEvents(await fetch(`${url}/api/chat`), (seen) => seen.length >= 1);
      expect(events[0].event).toBe('text-delta');
      await eventually(() => tornDown === 1, 'the model stream to be torn down');
    });
  });
});
