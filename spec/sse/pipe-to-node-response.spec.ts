import {
  request as httpRequest,
  createServer,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import express from 'express';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import Fastify from 'fastify';
import OpenAI from 'openai';
import { from, Observable, Subject } from 'rxjs';
import type { ChatChunk } from '../../lib/core/chat-chunk';
import type { ChatModel } from '../../lib/core/chat-model';
import { ChatClient } from '../../lib/client/chat-client';
import { InvalidOptionsError } from '../../lib/errors/invalid-options-error';
import { pipeToNodeResponse } from '../../lib/sse';
import { OpenAiChatModel } from '../../lib/providers/openai';
import { MockChatModel } from '../../lib/testing';
import { tool } from '../../lib/tools/tool-fn';
import { ToolCallingAdvisor } from '../../lib/tools/tool-calling-advisor';
import { close, eventually, listen, parseSse, readEvents } from './support/sse-test-kit';

/** A model whose every call never ends on its own and records when it is torn down. */
function endlessModel(): { model: ChatModel; subscribed: number; tornDown: number } {
  const state = { subscribed: 0, tornDown: 0, model: undefined as unknown as ChatModel };
  state.model = MockChatModel.respond(
    () =>
      new Observable<ChatChunk>((subscriber) => {
        state.subscribed++;
        subscriber.next({ type: 'text-delta', text: 'Still thinking' });
        return () => {
          state.tornDown++;
        };
      }),
  );
  return state;
}

/**
 * A provider-like model: each call streams from a real loopback HTTP server with fetch and
 * an AbortController, the way the SDK adapters do.
 */
function loopbackProvider(): {
  server: Server;
  closedRequests: number;
  model: (url: string) => ChatModel;
} {
  const state = {
    closedRequests: 0,
    server: createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('token ');
      const timer = setInterval(() => res.write('token '), 20);
      req.socket.on('close', () => {
        clearInterval(timer);
        state.closedRequests++;
      });
    }),
    model: (url: string): ChatModel => ({
      provider: 'loopback',
      stream: () =>
        new Observable<ChatChunk>((subscriber) => {
          const controller = new AbortController();
          void (async () => {
            const response = await fetch(url, { signal: controller.signal });
            const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
            for (;;) {
              const { done, value } = await reader.read();
              if (done) break;
              subscriber.next({ type: 'text-delta', text: value });
            }
            subscriber.complete();
          })().catch((error: unknown) => {
            if (!controller.signal.aborted) subscriber.error(error);
          });
          return () => controller.abort();
        }),
    }),
  };
  return state;
}

describe('pipeToNodeResponse', () => {
  const servers: Server[] = [];
  const serve = async (
    handler: (req: IncomingMessage, res: ServerResponse) => void,
  ): Promise<string> => {
    const server = createServer(handler);
    servers.push(server);
    return listen(server);
  };
  afterEach(async () => {
    await Promise.all(servers.splice(0).map(close));
  });

  describe('with node:http', () => {
    it('sends the SSE headers at once, before the first chunk', async () => {
      const chunks = new Subject<ChatChunk>();
      const url = await serve((_req, res) => pipeToNodeResponse(chunks, res, { heartbeat: false }));

      const response = await fetch(url); // resolves on the headers alone
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/event-stream');
      expect(response.headers.get('cache-control')).toBe('no-cache');
      expect(response.headers.get('connection')).toBe('keep-alive');
      expect(response.headers.get('x-accel-buffering')).toBe('no');
      expect(response.headers.get('x-vercel-ai-ui-message-stream')).toBeNull();

      chunks.next({ type: 'text-delta', text: 'late' });
      chunks.next({ type: 'finish', reason: 'stop' });
      chunks.complete();
      const events = parseSse(await response.text()).events;
      expect(events.map((event) => event.event)).toEqual(['text-delta', 'finish', 'done']);
    });

    it('streams a ChatClient answer and ends the response; extra headers and status are sent', async () => {
      const client = ChatClient.create(
        MockChatModel.script([{ text: 'Hi from the mock' }], { onExhausted: 'repeat-last' }),
      );
      const url = await serve((_req, res) =>
        pipeToNodeResponse(client.prompt('hi').stream().chunks(), res, {
          status: 201,
          headers: { 'x-stream-id': 's1', 'access-control-allow-origin': '*' },
        }),
      );
      const response = await fetch(url);
      expect(response.status).toBe(201);
      expect(response.headers.get('x-stream-id')).toBe('s1');
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
      const events = await readEvents(response);
      const text = events
        .filter((event) => event.event === 'text-delta')
        .map((event) => (JSON.parse(event.data) as { text: string }).text)
        .join('');
      expect(text).toBe('Hi from the mock');
      expect(events.at(-1)!.event).toBe('done');
    });

    it('a client that disconnects unsubscribes: the model stream is torn down', async () => {
      const endless = endlessModel();
      const client = ChatClient.create(endless.model);
      const url = await serve((_req, res) =>
        pipeToNodeResponse(client.prompt('hi').stream().chunks(), res),
      );

      const events = await readEvents(await fetch(url), (seen) => seen.length >= 1);
      expect(events[0].event).toBe('text-delta');
      await eventually(() => endless.tornDown === 1, 'the model stream to be torn down');
      expect(endless.subscribed).toBe(1);
    });

    it('a client that disconnects aborts the upstream request (seen by a loopback provider server)', async () => {
      const provider = loopbackProvider();
      servers.push(provider.server);
      const providerUrl = await listen(provider.server);
      const client = ChatClient.create(provider.model(providerUrl));
      const url = await serve((_req, res) =>
        pipeToNodeResponse(client.prompt('hi').stream().chunks(), res),
      );

      const events = await readEvents(await fetch(url), (seen) => seen.length >= 3);
      expect(events.every((event) => event.event === 'text-delta')).toBe(true);
      await eventually(
        () => provider.closedRequests === 1,
        'the provider to see its request closed',
      );
    });

    it('a client that disconnects aborts the OpenAI SDK request of OpenAiChatModel (loopback server)', async () => {
      let providerRequests = 0;
      let providerClosed = 0;
      const provider = createServer((req, res) => {
        providerRequests++;
        req.resume();
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        const chunk = (content: string): string =>
          `data: ${JSON.stringify({
            id: 'chatcmpl-1',
            object: 'chat.completion.chunk',
            created: 0,
            model: 'loopback',
            choices: [{ index: 0, delta: { content }, finish_reason: null }],
          })}\n\n`;
        res.write(chunk('Hello'));
        const timer = setInterval(() => res.write(chunk(' again')), 20);
        res.on('close', () => {
          clearInterval(timer);
          providerClosed++;
        });
      });
      servers.push(provider);
      const providerUrl = await listen(provider);
      const model = new OpenAiChatModel({
        client: new OpenAI({ apiKey: 'test-key', baseURL: `${providerUrl}/v1`, maxRetries: 0 }),
        model: 'loopback',
      });
      const client = ChatClient.create(model);
      const url = await serve((_req, res) =>
        pipeToNodeResponse(client.prompt('hi').stream().chunks(), res),
      );

      const events = await readEvents(
        await fetch(url),
        (seen) => seen.filter((e) => e.event === 'text-delta').length >= 3,
      );
      expect(events.filter((e) => e.event === 'text-delta').length).toBeGreaterThanOrEqual(3);
      await eventually(() => providerClosed === 1, 'the provider to see its request closed');
      expect(providerRequests).toBe(1);
    });

    it('respects backpressure: never writes while the socket needs a drain, and loses nothing', async () => {
      const big = 'x'.repeat(32 * 1024);
      const count = 200;
      const writesWhileFull: number[] = [];
      let refusedWrites = 0;
      const url = await serve((_req, res) => {
        const write = res.write.bind(res) as (chunk: string) => boolean;
        res.write = ((chunk: string) => {
          if (res.writableNeedDrain) writesWhileFull.push(res.writableLength);
          const accepted = write(chunk);
          if (!accepted) refusedWrites++;
          return accepted;
        }) as typeof res.write;
        const chunks: ChatChunk[] = Array.from({ length: count }, (_v, i) => ({
          type: 'text-delta',
          text: `${i}:${big}`,
        }));
        // 6.4 MB at once: above the default maxPendingBytes, which is not what this test is about.
        pipeToNodeResponse(from(chunks), res, { heartbeat: false, maxPendingBytes: 16 << 20 });
      });

      // A slow client: read nothing for a while, then everything.
      const body = await new Promise<string>((resolve, reject) => {
        httpRequest(url, (res) => {
          res.pause();
          setTimeout(() => {
            let text = '';
            res.setEncoding('utf8');
            res.on('data', (part: string) => (text += part));
            res.on('end', () => resolve(text));
            res.resume();
          }, 200);
        })
          .on('error', reject)
          .end();
      });

      expect(refusedWrites).toBeGreaterThan(0); // the socket did fill up
      expect(writesWhileFull).toEqual([]);
      const events = parseSse(body).events;
      expect(events).toHaveLength(count + 1);
      expect(events.map((event) => Number(event.id))).toEqual(events.map((_e, i) => i + 1));
      expect(
        events
          .slice(0, count)
          .map((event) => (JSON.parse(event.data) as { text: string }).text.split(':')[0]),
      ).toEqual(Array.from({ length: count }, (_v, i) => String(i)));
    });

    it('disconnects a client that falls more than maxPendingFrames behind, and unsubscribes', async () => {
      let tornDown = false;
      const big = 'y'.repeat(64 * 1024);
      const url = await serve((_req, res) => {
        const source$ = new Observable<ChatChunk>((subscriber) => {
          for (let i = 0; i < 50 && !subscriber.closed; i++)
            subscriber.next({ type: 'text-delta', text: big });
          return () => {
            tornDown = true;
          };
        });
        pipeToNodeResponse(source$, res, { maxPendingFrames: 5, heartbeat: false });
      });
      const outcome = await new Promise<string>((resolve) => {
        httpRequest(url, (res) => {
          res.on('data', () => undefined);
          res.on('end', () => resolve('ended'));
          res.on('error', () => resolve('aborted'));
          res.on('aborted', () => resolve('aborted'));
        })
          .on('error', () => resolve('aborted'))
          .end();
      });
      expect(outcome).toBe('aborted');
      expect(tornDown).toBe(true);
    });

    it('rejects a response whose headers were already sent, and bad options', async () => {
      const errors: unknown[] = [];
      const url = await serve((_req, res) => {
        try {
          pipeToNodeResponse(from<ChatChunk[]>([]), res, { maxPendingFrames: 0 });
        } catch (error) {
          errors.push(error);
        }
        res.flushHeaders();
        try {
          pipeToNodeResponse(from<ChatChunk[]>([]), res);
        } catch (error) {
          errors.push(error);
        }
        res.end();
      });
      await (await fetch(url)).text();
      expect(errors.map((error) => InvalidOptionsError.isInstance(error) && error.option)).toEqual([
        'maxPendingFrames',
        'res',
      ]);
    });
  });

  describe('tool progress (ToolCallingAdvisor with emitToolEvents)', () => {
    it('the client sees a tool call while the tool still runs, then its result, then the answer', async () => {
      let finishTool: (value: string) => void = () => undefined;
      let toolStarted = false;
      const getTime = tool({
        name: 'getTime',
        description: 'The current time in a city',
        parameters: {
          type: 'object',
          properties: { city: { type: 'string' } },
          required: ['city'],
        },
        execute: () => {
          toolStarted = true;
          return new Promise<string>((resolve) => (finishTool = resolve));
        },
      });
      const model = MockChatModel.script([
        { toolCalls: [{ id: 'c1', name: 'getTime', arguments: { city: 'Paris' } }] },
        { text: 'Noon.' },
      ]);
      const client = ChatClient.builder(model)
        .defaultAdvisors(new ToolCallingAdvisor({ emitToolEvents: true }))
        .defaultTools(getTime)
        .build();
      const url = await serve((_req, res) =>
        pipeToNodeResponse(client.prompt('time?').stream().chunks(), res),
      );

      const events: EventSourceMessage[] = [];
      const parser = createParser({ onEvent: (event) => events.push(event) });
      const reader = (await fetch(url)).body!.pipeThrough(new TextDecoderStream()).getReader();
      const readUntil = async (type: string): Promise<void> => {
        while (!events.some((event) => event.event === type)) {
          const { done, value } = await reader.read();
          if (done) throw new Error(`the stream ended before a ${type} event`);
          parser.feed(value);
        }
      };

      await readUntil('tool-call');
      expect(toolStarted).toBe(true);
      expect(events.some((event) => event.event === 'tool-result')).toBe(false);
      expect(JSON.parse(events.find((event) => event.event === 'tool-call')!.data)).toEqual({
        type: 'tool-call',
        id: 'c1',
        name: 'getTime',
        arguments: '{"city":"Paris"}',
      });

      finishTool('12:00 in Paris');
      await readUntil('done');
      expect(events.map((event) => event.event)).toEqual([
        'round-start',
        // The arguments as the model typed them (emitToolEvents forwards the deltas).
        'tool-call-delta',
        'tool-call-delta',
        'tool-call-delta',
        'tool-call',
        'round-end',
        'tool-result',
        'round-start',
        'text-delta',
        'round-end',
        'metadata',
        'usage',
        'finish',
        'done',
      ]);
      expect(JSON.parse(events[6].data)).toEqual({
        type: 'tool-result',
        id: 'c1',
        name: 'getTime',
        content: '12:00 in Paris',
      });
    });
  });

  describe('with Express 5', () => {
    it('streams an answer and aborts the model when the client disconnects', async () => {
      const endless = endlessModel();
      const client = ChatClient.create(MockChatModel.script([{ text: 'Hello Express' }]));
      const slow = ChatClient.create(endless.model);
      const app = express();
      app.post('/api/chat', express.json(), (req, res) => {
        pipeToNodeResponse(client.prompt(String(req.body.message)).stream().chunks(), res, {
          protocol: 'ai-sdk-ui',
        });
      });
      app.get('/api/slow', (_req, res) =>
        pipeToNodeResponse(slow.prompt('hi').stream().chunks(), res),
      );
      const server = app.listen(0, '127.0.0.1');
      servers.push(server);
      await new Promise((resolve) => server.once('listening', resolve));
      const { port } = server.address() as { port: number };
      const url = `http://127.0.0.1:${port}`;

      const response = await fetch(`${url}/api/chat`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ message: 'hi' }),
      });
      expect(response.headers.get('x-vercel-ai-ui-message-stream')).toBe('v1');
      const events = await readEvents(response);
      expect(events.at(-1)!.data).toBe('[DONE]');
      expect(
        events
          .map(
            (event) =>
              (JSON.parse(event.data === '[DONE]' ? '{}' : event.data) as { delta?: string }).delta,
          )
          .join(''),
      ).toBe('Hello Express');

      await readEvents(await fetch(`${url}/api/slow`), (seen) => seen.length >= 1);
      await eventually(() => endless.tornDown === 1, 'the model stream to be torn down');
    });
  });

  describe('with Fastify 5 (reply.hijack + reply.raw)', () => {
    it('streams an answer and aborts the model when the client disconnects', async () => {
      const endless = endlessModel();
      const client = ChatClient.create(MockChatModel.script([{ text: 'Hello Fastify' }]));
      const slow = ChatClient.create(endless.model);
      const app = Fastify({ forceCloseConnections: true });
      app.get('/api/chat', (_request, reply) => {
        reply.hijack();
        pipeToNodeResponse(client.prompt('hi').stream().chunks(), reply.raw);
      });
      app.get('/api/slow', (_request, reply) => {
        reply.hijack();
        pipeToNodeResponse(slow.prompt('hi').stream().chunks(), reply.raw);
      });
      const url = await app.listen({ port: 0, host: '127.0.0.1' });
      try {
        const response = await fetch(`${url}/api/chat`);
        expect(response.headers.get('content-type')).toBe('text/event-stream');
        const events = await readEvents(response);
        expect(events.map((event) => event.event)).toEqual([
          'metadata',
          'text-delta',
          'text-delta',
          'finish',
          'done',
        ]);

        await readEvents(await fetch(`${url}/api/slow`), (seen) => seen.length >= 1);
        await eventually(() => endless.tornDown === 1, 'the model stream to be torn down');
      } finally {
        await app.close();
      }
    });
  });
});
