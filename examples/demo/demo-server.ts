import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import {
  ChatClient,
  InvalidOptionsError,
  MessageChatMemoryAdvisor,
  MessageWindowChatMemory,
  QuestionAnswerAdvisor,
  ToolCallingAdvisor,
  type Advisor,
  type ChatModel,
  type ToolMessage,
} from '../../lib/index.js';
import { SqliteChatMemoryRepository } from '../../lib/memory/sqlite/index.js';
import { DurableRunAdvisor, durableRunRestorer } from '../../lib/run/index.js';
import { SqliteRunJournal } from '../../lib/run/sqlite/index.js';
import type { ChatMemoryRepository } from '../../lib/index.js';
import type { ResumableStreams, ResumableStreamsOptions } from '../../lib/sse/index.js';
import { ChatStreamEndpoints } from './chat-stream-endpoints.js';
import { createDeleteUserTool } from './delete-user-tool.js';
import type { DemoDocs } from './demo-docs.js';
import { DEMO_DOCS_TEMPLATE } from './demo-docs-prompt.js';
import type { ChatDecision } from './read-chat-message.js';
import { DEMO_USERS } from './users-table.js';
import { DemoTurns } from './demo-turns.js';
import { createGetTimeTool } from './get-time-tool.js';
import { OfflineDemoModel } from './offline-demo-model.js';
import { sendJson } from './send-json.js';
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
  /**
   * The resumable streams' bounds (`ResumableStreams` options); default
   * `{ ttl: 30000, maxBufferedFrames: 4000 }` and the library's `maxStreams` (1000). `ttl` is
   * how long a stream keeps running without a connected client (then its model request is
   * aborted), and how long a finished one stays resumable.
   */
  resume?: ResumableStreamsOptions;
  /**
   * The chat streams' registry, shared by instances (`RedisResumableStreams`); default an
   * in-memory `ResumableStreams` with the `resume` bounds. The caller closes it.
   */
  streams?: ResumableStreams;
  /**
   * Where chat memory lives, shared by instances (`PostgresChatMemoryRepository`); default
   * SQLite under `dataDir` (then no file is opened). The caller closes it.
   */
  chatMemoryRepository?: ChatMemoryRepository;
  /**
   * TEST HOOK, off by default and never set by `npm start`: every `POST /api/chat` response
   * is destroyed when its stream's n-th text delta passes (before that delta is written), as a
   * dropped connection would be; the stream keeps running and can be resumed.
   */
  cutChatResponsesAfterTextDeltas?: number;
  /**
   * Durable runs (`npm start` turns them on): every answer is a durable run recorded in a
   * SQLite journal under `dataDir` (`demo-runs.sqlite`), its run id the stream id, and a
   * resume that finds no stream (the server restarted mid-answer) continues the run from the
   * journal after the page's last event (`durableRunRestorer`). Event ids then carry the
   * run's delivery units (`id: 12.340`). With `streams` given (Redis) runs are recorded and
   * resumable, but a lost stream is not restored. Default off.
   */
  durableRuns?: boolean;
  /** Advisors added outermost, before memory (the demo's `OpenTelemetryAdvisor`); default none. */
  advisors?: readonly Advisor[];
  /**
   * Documents searched for every question (`loadDemoDocs`): the two best above the threshold
   * go into the prompt and to the page as `source` events; default none.
   */
  docs?: DemoDocs;
}

/** A running demo server. */
export interface DemoServer {
  /** `http://<host>:<port>/`. */
  readonly url: string;
  readonly port: number;
  /** Chat responses (`POST /api/chat` and resumes) being sent right now. */
  readonly activeStreams: number;
  /** Chat streams kept for a resume: running, or finished less than `resume.ttl` ago. */
  readonly resumableStreams: number;
  /** Stops it: running streams unsubscribed (model requests and tools aborted), server and database closed. */
  close(): Promise<void>;
}

export { MAX_MESSAGE_LENGTH } from './read-chat-message.js';

/**
 * Starts the demo: a one-page chat UI at `/` and its API, an SSE chat endpoint
 * (`POST /api/chat` with `{ "message": "…" }`) over a `ChatClient` with memory per browser
 * session (SQLite under `dataDir`) and the tool loop (`getTime`, `usersRegisteredOn`) with
 * tool events on the wire. Chat streams are resumable: `GET /api/chat/<x-stream-id>` with
 * `Last-Event-ID` continues one after a dropped connection, `DELETE /api/chat/<id>` cancels
 * it. Also `GET /api/info`, `GET /api/history`, `POST /api/reset`.
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
  const cutAfter = options.cutChatResponsesAfterTextDeltas;
  if (cutAfter !== undefined && !(Number.isInteger(cutAfter) && cutAfter >= 1)) {
    throw new InvalidOptionsError({
      option: 'cutChatResponsesAfterTextDeltas',
      value: cutAfter,
      expected: 'a positive integer (a test hook; leave it out to never cut responses)',
    });
  }
  const modelDescription = options.modelDescription ?? `${model.provider} model`;
  const assets = loadStaticAssets();

  const database = options.chatMemoryRepository === undefined ? openSqlite(dataDir) : undefined;
  const chatMemory = new MessageWindowChatMemory({
    maxMessages: 40,
    repository:
      options.chatMemoryRepository ?? new SqliteChatMemoryRepository({ database: database! }),
  });
  // This server's own copy of the table: `deleteUser` (after approval) changes it.
  const users = DEMO_USERS.map((user) => ({ ...user }));
  const tools = [
    createGetTimeTool({ now }),
    createUsersRegisteredOnTool({ users }),
    createDeleteUserTool({ users }),
  ];
  // Durable runs: the journal outlives the process; a restarted server continues an answer.
  const journal =
    options.durableRuns === true
      ? (mkdirSync(dataDir, { recursive: true }),
        new SqliteRunJournal({ path: join(dataDir, 'demo-runs.sqlite') }))
      : undefined;
  const client = ChatClient.builder(model)
    .defaultAdvisors(
      ...(journal === undefined ? [] : [new DurableRunAdvisor({ journal })]),
      ...(options.advisors ?? []),
      // Tool calls and results are kept too, so the history after a reload shows them.
      new MessageChatMemoryAdvisor({ chatMemory, saveToolMessages: true }),
      ...(options.docs === undefined ? [] : [docsAdvisor(options.docs)]),
      new ToolCallingAdvisor({ emitToolEvents: true, maxRounds: 6 }),
    )
    .defaultTools(...tools)
    .build();
  const info = JSON.stringify({
    provider: model.provider,
    model: modelDescription,
    tools: tools.map(({ name, description }) => ({ name, description })),
    docs: options.docs?.documents.map(({ id, metadata }) => ({ id, title: metadata['title'] })),
  });
  const docTexts = new Map(options.docs?.documents.map((d) => [d.id, d.text]));
  const turns = new DemoTurns(chatMemory);
  // The run's owner is the browser session, which is also the conversation.
  const runParams = (runId: string, conversationId: string) =>
    journal === undefined ? {} : { runId, runOwner: conversationId };
  const chats = new ChatStreamEndpoints({
    chunksFor: async (input, conversationId, streamId) => {
      const prompt = client
        .prompt()
        .system(systemText(now()))
        .advisorParams({ conversationId, ...runParams(streamId, conversationId) });
      if (typeof input === 'string') {
        return turns.track(conversationId, prompt.user(input).stream().chunks());
      }
      const decisions = await decisionMessages(chatMemory, conversationId, input);
      if (typeof decisions === 'string') return { status: 409, error: decisions };
      return turns.track(
        conversationId,
        prompt
          .messages(...decisions)
          .stream()
          .chunks(),
      );
    },
    heartbeat,
    log,
    resume: { ttl: 30_000, maxBufferedFrames: 4000, ...options.resume },
    streams: options.streams,
    cutResponsesAfterTextDeltas: cutAfter,
    // A resume after a restart: the run of this session, with no new message.
    restore:
      journal === undefined
        ? undefined
        : durableRunRestorer({
            journal,
            resume: (params) =>
              turns.track(
                params.runOwner,
                client
                  .prompt()
                  .system(systemText(now()))
                  .advisorParams({ conversationId: params.runOwner, ...params })
                  .stream()
                  .chunks(),
              ),
          }),
  });

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
      if (path === '/api/users') return sendJson(res, 200, { users });
      const docId = DOC_PATH.exec(path)?.[1];
      const docText = docId === undefined ? undefined : docTexts.get(docId);
      if (docText !== undefined) {
        // Plain text, never rendered: a document is shown as it is written.
        res.writeHead(200, {
          'content-type': 'text/plain; charset=utf-8',
          'x-content-type-options': 'nosniff',
        });
        res.end(req.method === 'HEAD' ? undefined : docText);
        return;
      }
      if (path === '/api/history') {
        return sendJson(res, 200, { messages: await turns.history(sessionOf(req).id) });
      }
    }
    if (req.method === 'POST' && path === '/api/chat') return chats.start(req, res);
    const streamId = STREAM_PATH.exec(path)?.[1];
    if (streamId !== undefined && req.method === 'GET') return chats.resume(req, res, streamId);
    if (streamId !== undefined && req.method === 'DELETE') return chats.cancel(req, res, streamId);
    if (req.method === 'POST' && path === '/api/reset') {
      const { id } = sessionOf(req);
      await chatMemory.clear(id);
      turns.forget(id);
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
    database?.close();
    journal?.close();
    throw error;
  });
  const actualPort = (server.address() as AddressInfo).port;

  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closing ??= (async () => {
      chats.close(); // ends responses, then streams: model requests and tools aborted
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
      // An unsubscribed turn saves the user's message in the background (synchronous
      // SQLite behind a few promise steps): let those settle before the database closes.
      await new Promise<void>((resolve) => setImmediate(resolve));
      database?.close();
      journal?.close();
    })();
    return closing;
  };

  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${actualPort}/`,
    port: actualPort,
    get activeStreams() {
      return chats.activeResponses;
    },
    get resumableStreams() {
      return chats.keptStreams;
    },
    close,
  };
}

/** The SQLite chat memory file under `dataDir` (the folder created when missing). */
function openSqlite(dataDir: string): Database.Database {
  mkdirSync(dataDir, { recursive: true });
  const database = new Database(join(dataDir, 'demo-chat-memory.sqlite'));
  // better-sqlite3 runs on the event loop: with the default synchronous=FULL every saved turn
  // waits for an fsync (7 ms here), and every stream of the server stalls meanwhile. In WAL
  // mode NORMAL is safe against corruption; an OS crash may lose the last turns.
  database.pragma('journal_mode = WAL');
  database.pragma('synchronous = NORMAL');
  return database;
}

/**
 * The decision tool messages of `POST /api/chat` with `decisions`: each answers a call of the
 * conversation's last assistant message (in memory), matched by its approval id
 * (`approval-<call id>`); or why they cannot be sent.
 */
async function decisionMessages(
  chatMemory: MessageWindowChatMemory,
  conversationId: string,
  decisions: readonly ChatDecision[],
): Promise<ToolMessage[] | string> {
  const messages = await chatMemory.get(conversationId);
  const last = messages[messages.length - 1];
  const calls = last?.role === 'assistant' ? (last.toolCalls ?? []) : [];
  const result: ToolMessage[] = [];
  for (const { approvalId, approved, reason } of decisions) {
    const call = calls.find((c) => `approval-${c.id}` === approvalId);
    if (call === undefined) return `No tool call of this conversation awaits ${approvalId}.`;
    result.push({
      role: 'tool',
      toolCallId: call.id,
      name: call.name,
      content: '',
      approval: { approvalId, approved, ...(reason === undefined ? {} : { reason }) },
    });
  }
  return result;
}

/** `/api/docs/<id>`: a document of the demo's set, as text (the page links its sources here). */
const DOC_PATH = /^\/api\/docs\/([\w.-]{1,100})$/;

/**
 * Retrieval over the demo's documents: inside memory (which keeps the plain question),
 * outside the tool loop (one search per question however many rounds), sources on the wire.
 */
function docsAdvisor(docs: DemoDocs): QuestionAnswerAdvisor {
  return new QuestionAnswerAdvisor({
    vectorStore: docs.vectorStore,
    searchRequest: { topK: 2, similarityThreshold: docs.similarityThreshold },
    promptTemplate: DEMO_DOCS_TEMPLATE,
    emitSources: true,
  });
}

/** `/api/chat/<stream id>`: the resume (GET) and cancel (DELETE) routes. */
const STREAM_PATH = /^\/api\/chat\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/;

function systemText(today: Date): string {
  return (
    'You are the assistant of the rx-advisors demo. Be brief. Use the getTime tool for the ' +
    'current time in a city, the usersRegisteredOn tool for the users who registered on ' +
    'a date (YYYY-MM-DD), and the deleteUser tool to delete a user by id (the user approves ' +
    `it). Today is ${today.toISOString().slice(0, 10)} (UTC).`
  );
}
