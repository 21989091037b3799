import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Subscription } from 'rxjs';
import {
  ChatClient,
  MessageChatMemoryAdvisor,
  MessageWindowChatMemory,
  ProviderError,
  ToolCallingAdvisor,
  type ChatModel,
} from '../../lib/index.js';
import { SqliteChatMemoryRepository } from '../../lib/memory/sqlite/index.js';
import { pipeToNodeResponse } from '../../lib/sse/index.js';
import { createGetTimeTool } from './get-time-tool.js';
import { OfflineDemoModel } from './offline-demo-model.js';
import { sessionOf } from './session-cookie.js';
import { loadStaticAssets } from './static-assets.js';
import { createUsersRegisteredOnTool } from './users-registered-on-tool.js';

/** Options of {@link startDemoServer}. */
export interface DemoServerOptions {
  /** The port; default 3000; 0 picks a free one (see `DemoServer.port`). */
  port?: number;
  /** The interface to listen on; default `127.0.0.1` (this machine only). */
  host?: string;
  /** The chat model; default the offline demo model. */
  model?: ChatModel;
  /** What the page and `/api/info` say about the model. */
  modelDescription?: string;
  /** Where the SQLite chat memory lives; default `.data` (created when missing). */
  dataDir?: string;
  /** The clock of the `getTime` tool and of the system prompt's date; default now. */
  now?: () => Date;
  /** Milliseconds between SSE heartbeat comments; default 15000. */
  heartbeat?: number | false;
  /** Server log lines (errors of streams); default none. */
  log?: (line: string) => void;
}

/** A running demo server. */
export interface DemoServer {
  /** `http://<host>:<port>/`. */
  readonly url: string;
  readonly port: number;
  /** Chat streams being sent right now. */
  readonly activeStreams: number;
  /** Stops it: running streams unsubscribed (model requests and tools aborted), server and database closed. */
  close(): Promise<void>;
}

/** The longest user message the chat endpoint accepts, in characters. */
export const MAX_MESSAGE_LENGTH = 4000;
const MAX_BODY_BYTES = 64 * 1024;

/**
 * Starts the demo: a one-page chat UI at `/` and its API, an SSE chat endpoint
 * (`POST /api/chat` with `{ "message": "…" }`) over a `ChatClient` with memory per browser
 * session (SQLite under `dataDir`) and the tool loop (`getTime`, `usersRegisteredOn`) with
 * tool events on the wire. Also `GET /api/info`, `GET /api/history`, `POST /api/reset`.
 *
 * @example
 * ```ts
 * const server = await startDemoServer({ port: 0, dataDir: mkdtempSync('/tmp/demo-') });
 * console.log(server.url);
 * await server.close();
 * ```
 * @param options Port, model, data folder, clock; all optional.
 * @returns The running server, once it listens.
 */
export async function startDemoServer(options: DemoServerOptions = {}): Promise<DemoServer> {
  const { port = 3000, host = '127.0.0.1', dataDir = '.data', heartbeat = 15_000 } = options;
  const { now = () => new Date(), log = () => undefined } = options;
  const model = options.model ?? new OfflineDemoModel();
  const modelDescription = options.modelDescription ?? `${model.provider} model`;
  const assets = loadStaticAssets();

  mkdirSync(dataDir, { recursive: true });
  const database = new Database(join(dataDir, 'demo-chat-memory.sqlite'));
  // better-sqlite3 runs on the event loop: with the default synchronous=FULL every saved turn
  // waits for an fsync (7 ms here), and every stream of the server stalls meanwhile. In WAL
  // mode NORMAL is safe against corruption; an OS crash may lose the last turns.
  database.pragma('journal_mode = WAL');
  database.pragma('synchronous = NORMAL');
  const chatMemory = new MessageWindowChatMemory({
    maxMessages: 40,
    repository: new SqliteChatMemoryRepository({ database }),
  });
  const tools = [createGetTimeTool({ now }), createUsersRegisteredOnTool()];
  const client = ChatClient.builder(model)
    .defaultAdvisors(
      new MessageChatMemoryAdvisor({ chatMemory }),
      new ToolCallingAdvisor({ emitToolEvents: true, maxRounds: 6 }),
    )
    .defaultTools(...tools)
    .build();
  const info = JSON.stringify({
    provider: model.provider,
    model: modelDescription,
    tools: tools.map(({ name, description }) => ({ name, description })),
  });
  const streams = new Set<Subscription>();

  const chat = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (!/^application\/json\b/i.test(req.headers['content-type'] ?? '')) {
      return sendJson(res, 415, { error: 'Send the message as JSON: {"message": "…"}.' });
    }
    const message = parseMessage(await readBody(req));
    if (typeof message !== 'string') return sendJson(res, message.status, { error: message.error });
    const session = sessionOf(req);
    const chunks$ = client
      .prompt()
      .system(systemText(now()))
      .user(message)
      .advisorParams({ conversationId: session.id })
      .stream()
      .chunks();
    const stream = pipeToNodeResponse(chunks$, res, {
      heartbeat,
      headers: session.setCookie === undefined ? {} : { 'set-cookie': session.setCookie },
      errorMessage: (error) => {
        log(`chat stream failed: ${error instanceof Error ? error.stack : String(error)}`);
        // Provider errors are redacted by the adapters, and say what to fix (a bad key…).
        return ProviderError.isInstance(error)
          ? error.message
          : 'The stream failed on the server (see its log).';
      },
    });
    streams.add(stream);
    res.once('close', () => streams.delete(stream));
  };

  const route = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    if (req.method === 'GET' || req.method === 'HEAD') {
      const asset = assets.get(path);
      if (asset !== undefined) {
        const { setCookie } = sessionOf(req);
        res.writeHead(200, {
          'content-type': asset.contentType,
          'cache-control': 'no-cache',
          ...(setCookie === undefined ? {} : { 'set-cookie': setCookie }),
        });
        res.end(req.method === 'HEAD' ? undefined : asset.body);
        return;
      }
      if (path === '/api/info') return sendJson(res, 200, info);
      if (path === '/api/history') {
        const messages = await chatMemory.get(sessionOf(req).id);
        return sendJson(res, 200, {
          messages: messages
            .filter((m) => (m.role === 'user' || m.role === 'assistant') && m.content !== '')
            .map(({ role, content }) => ({ role, content })),
        });
      }
    }
    if (req.method === 'POST' && path === '/api/chat') return chat(req, res);
    if (req.method === 'POST' && path === '/api/reset') {
      await chatMemory.clear(sessionOf(req).id);
      return sendJson(res, 200, { cleared: true });
    }
    sendJson(res, 404, { error: `No route ${req.method ?? ''} ${path}.` });
  };

  const server = createServer((req, res) => {
    route(req, res).catch((error: unknown) => {
      log(`request ${req.method ?? ''} ${req.url ?? ''} failed: ${String(error)}`);
      if (res.headersSent) res.destroy();
      else sendJson(res, 500, { error: 'The server failed on this request (see its log).' });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  }).catch((error: unknown) => {
    database.close();
    throw error;
  });
  const actualPort = (server.address() as AddressInfo).port;

  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closing ??= (async () => {
      for (const stream of streams) stream.unsubscribe(); // aborts model requests and tools
      streams.clear();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
      // An unsubscribed turn saves the user's message in the background (synchronous
      // SQLite behind a few promise steps): let those settle before the database closes.
      await new Promise<void>((resolve) => setImmediate(resolve));
      database.close();
    })();
    return closing;
  };

  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${actualPort}/`,
    port: actualPort,
    get activeStreams() {
      return streams.size;
    },
    close,
  };
}

function systemText(today: Date): string {
  return (
    'You are the assistant of the rx-advisors demo. Be brief. Use the getTime tool for the ' +
    'current time in a city, and the usersRegisteredOn tool for the users who registered on ' +
    `a date (YYYY-MM-DD). Today is ${today.toISOString().slice(0, 10)} (UTC).`
  );
}

type BadRequest = { status: number; error: string };

function parseMessage(body: string | BadRequest): string | BadRequest {
  if (typeof body !== 'string') return body;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return { status: 400, error: 'The body is not JSON. Send {"message": "…"}.' };
  }
  const message =
    typeof parsed === 'object' && parsed !== null
      ? (parsed as Record<string, unknown>)['message']
      : undefined;
  if (typeof message !== 'string' || message.trim() === '') {
    return { status: 400, error: 'Send a non-empty "message" string: {"message": "…"}.' };
  }
  if (message.length > MAX_MESSAGE_LENGTH) {
    return {
      status: 413,
      error: `The message has ${message.length} characters; at most ${MAX_MESSAGE_LENGTH} are accepted.`,
    };
  }
  return message;
}

async function readBody(req: IncomingMessage): Promise<string | BadRequest> {
  const parts: Buffer[] = [];
  let size = 0;
  for await (const part of req as AsyncIterable<Buffer>) {
    size += part.length;
    if (size > MAX_BODY_BYTES) {
      return { status: 413, error: `The body is larger than ${MAX_BODY_BYTES} bytes.` };
    }
    parts.push(part);
  }
  return Buffer.concat(parts).toString('utf8');
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
  });
  res.end(text);
}
