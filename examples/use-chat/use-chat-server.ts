import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ChatModel } from 'rx-advisors';
import { ResumableStreams } from 'rx-advisors/sse';
import type { ClientBundle } from './build-client.js';
import { ChatRoutes } from './chat-routes.js';
import { createOfflineModel } from './offline-model.js';
import { PAGE_CSS, PAGE_HTML } from './page.js';
import { createResearcherModel } from './research-agent.js';
import { sessionOf } from './session.js';

/** Options of {@link startUseChatServer}. */
export interface UseChatServerOptions {
  /** The page script (`buildClient()`). */
  bundle: ClientBundle;
  /** The chat model; default the offline model (`createOfflineModel()`). */
  model?: ChatModel;
  /** The `research` agent's model; default the offline researcher (`createResearcherModel()`). */
  researchModel?: ChatModel;
  /** The port; default 3000; 0 picks a free one (see `UseChatServer.url`). */
  port?: number;
  /** The interface to listen on; default `127.0.0.1` (this machine only). */
  host?: string;
  /** The clock of the `getTime` tool; default `() => new Date()`. */
  now?: () => Date;
  /** The ids `deleteUser` can delete; default 1 to 10. */
  users?: readonly number[];
  /** Milliseconds between SSE heartbeats, or `false`; default 15000. */
  heartbeat?: number | false;
  /** Chats whose UI messages are kept for a reload (oldest dropped first); default 1000. */
  maxChats?: number;
  /** The largest `POST /api/chat` body, in bytes; default 1 MiB. */
  maxBodyBytes?: number;
}

/** A running example server. */
export interface UseChatServer {
  /** `http://host:port/`. */
  url: string;
  /** The users `deleteUser` has not deleted (yet). */
  users: ReadonlySet<number>;
  /**
   * Breaks every connection streaming an answer, as a network failure would (a test hook):
   * the answers go on, and the pages resume them.
   * @returns How many connections were broken.
   */
  dropChatConnections(): number;
  /** Ends every stream and closes the server. */
  close(): Promise<void>;
}

/**
 * The example's server (Node `http`): the page (`/`, `/app.js`, `/style.css`) and the routes
 * `useChat` calls: `POST /api/chat`, `GET /api/chat/<id>/stream` (resume), plus
 * `DELETE /api/chat/<id>/stream` (the Stop button) and `GET /api/chat/<id>/messages` (the
 * chat's UI messages for a reload). See README.md.
 *
 * @example
 * ```ts
 * const server = await startUseChatServer({ bundle: await buildClient(), port: 0 });
 * console.log(server.url);
 * ```
 * @param options The bundle, model, port and bounds.
 * @returns The running server.
 */
export async function startUseChatServer(options: UseChatServerOptions): Promise<UseChatServer> {
  const { bundle, port = 3000, host = '127.0.0.1' } = options;
  const users = new Set(options.users ?? [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  const streams = new ResumableStreams({ ttl: 60_000 });
  const routes = new ChatRoutes({
    model: options.model ?? createOfflineModel(),
    researchModel: options.researchModel ?? createResearcherModel(),
    now: options.now ?? (() => new Date()),
    users,
    streams,
    heartbeat: options.heartbeat ?? 15_000,
    maxChats: options.maxChats ?? 1000,
    maxBodyBytes: options.maxBodyBytes ?? 1024 * 1024,
  });

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      console.error(error);
      if (!res.headersSent) res.writeHead(500).end();
      else res.destroy();
    });
  });
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const { pathname } = new URL(req.url ?? '/', 'http://localhost');
    const chat = /^\/api\/chat\/([\w-]{1,64})\/(stream|messages)$/.exec(pathname);
    if (pathname === '/api/chat' && req.method === 'POST') return routes.post(req, res);
    if (chat !== null && chat[2] === 'stream' && req.method === 'GET') {
      return routes.resume(req, res, chat[1]);
    }
    if (chat !== null && chat[2] === 'stream' && req.method === 'DELETE') {
      return routes.cancel(req, res, chat[1]);
    }
    if (chat !== null && req.method === 'GET') return routes.messages(req, res, chat[1]);
    if (req.method !== 'GET') return void res.writeHead(405).end();
    if (pathname === '/') {
      const { setCookie } = sessionOf(req);
      return void res
        .writeHead(200, {
          'content-type': 'text/html; charset=utf-8',
          ...(setCookie === undefined ? {} : { 'set-cookie': setCookie }),
        })
        .end(PAGE_HTML);
    }
    if (pathname === '/app.js') {
      return void res.writeHead(200, { 'content-type': 'text/javascript' }).end(bundle.js);
    }
    if (pathname === '/style.css') {
      return void res.writeHead(200, { 'content-type': 'text/css' }).end(PAGE_CSS);
    }
    res.writeHead(404).end();
  };

  await new Promise<void>((resolve) => server.listen(port, host, resolve));
  const { port: actual } = server.address() as AddressInfo;
  return {
    url: `http://${host}:${actual}/`,
    users,
    dropChatConnections: () => routes.dropConnections(),
    close: () =>
      new Promise<void>((resolve) => {
        streams.clear();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
