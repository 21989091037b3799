import type { IncomingMessage, ServerResponse } from 'node:http';
import { validateUIMessages, type UIMessage } from 'ai';
import {
  agentProgress,
  ChatClient,
  InMemoryChatMemoryRepository,
  MessageChatMemoryAdvisor,
  MessageWindowChatMemory,
  ToolCallingAdvisor,
  type ChatModel,
  type Message,
} from 'rx-advisors';
import {
  pipeToNodeResponse,
  ResumableStreamLimitError,
  uiMessagesToMessages,
  type ResumableStreamKey,
  type ResumableStreams,
} from 'rx-advisors/sse';
import { createDeleteUserTool } from './delete-user-tool.js';
import { createGetTimeTool } from './get-time-tool.js';
import { modelCallStatus } from './model-call-status.js';
import { readJsonBody } from './read-json-body.js';
import { createResearchTool } from './research-agent.js';
import { recordAnswer } from './record-answer.js';
import { sessionOf } from './session.js';

/** Options of {@link ChatRoutes} (see `UseChatServerOptions`). */
export interface ChatRoutesOptions {
  model: ChatModel;
  /** The `research` agent's model. */
  researchModel: ChatModel;
  now: () => Date;
  users: Set<number>;
  streams: ResumableStreams;
  heartbeat: number | false;
  maxChats: number;
  maxBodyBytes: number;
}

const CHAT_ID = /^[\w-]{1,64}$/;

/** What the server keeps of a chat for a reload. */
interface ChatRecord {
  /** The UI messages: as posted, then with the recorded answer once it ended. */
  messages: UIMessage[];
  /** Whether its answer is still streaming (and so can be resumed). */
  answering: boolean;
  /** Whether that answer continues the posted list's last message (after approvals). */
  continuation: boolean;
}

/**
 * The routes `useChat` talks to. Memory holds each conversation (`history: 'memory'`: only
 * the new user message, or the approval decisions, is taken from the posted list); the
 * session owns the streams and the chat id names one within it.
 *
 * @example
 * ```ts partial
 * const routes = new ChatRoutes({ model, researchModel, now, users, streams, heartbeat: 15_000, maxChats: 1000, maxBodyBytes: 1 << 20 });
 * if (req.method === 'POST' && pathname === '/api/chat') await routes.post(req, res);
 * ```
 */
export class ChatRoutes {
  private readonly client: ChatClient;
  /** Each chat's messages for a reload, by session and chat id. */
  private readonly chats = new Map<string, ChatRecord>();
  /** The responses streaming an answer right now (POST and resumes). */
  private readonly streaming = new Set<ServerResponse>();

  /** @param options The model, tools' state, stream registry and bounds. */
  constructor(private readonly options: ChatRoutesOptions) {
    const chatMemory = new MessageWindowChatMemory({
      repository: new InMemoryChatMemoryRepository(),
    });
    this.client = ChatClient.builder(options.model)
      .defaultAdvisors(
        new MessageChatMemoryAdvisor({ chatMemory, saveToolMessages: true }),
        new ToolCallingAdvisor({ emitToolEvents: true }), // tool parts reach the page
        modelCallStatus, // inside the loop: a data-status part per model call
      )
      .defaultTools(
        createGetTimeTool(options.now),
        createDeleteUserTool(options.users),
        createResearchTool(options.researchModel), // an agent as a tool
      )
      .build();
  }

  /**
   * `POST /api/chat` (useChat's `sendMessage`, and its automatic send after approvals): the
   * answer as the UI message stream, resumable under the chat id.
   * @param req The request: `{ id, messages, trigger, messageId }`.
   * @param res The response.
   */
  async post(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const session = sessionOf(req);
    const body = await readJsonBody(req, this.options.maxBodyBytes);
    if ('refused' in body) return sendError(res, body.refused.status, body.refused.error);
    const { id, messages } = (body.value ?? {}) as { id?: unknown; messages?: unknown };
    if (typeof id !== 'string' || !CHAT_ID.test(id)) {
      return sendError(res, 400, 'The chat id must be 1 to 64 letters, digits, "_" or "-".');
    }
    let question: Message[];
    let uiMessages: UIMessage[];
    try {
      uiMessages = await validateUIMessages({ messages });
      question = uiMessagesToMessages({ messages: uiMessages, history: 'memory' });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      return sendError(res, 400, `Not a list of UI messages: ${message}`);
    }
    const chunks$ = this.client
      .prompt()
      .messages(...question)
      .advisorParams({ conversationId: `${session.id}:${id}` })
      .stream()
      .chunks()
      // The research agent's chunks as one data-agent-progress part, replaced as it grows.
      .pipe(agentProgress());
    try {
      this.track(res);
      pipeToNodeResponse(chunks$, res, {
        protocol: 'ai-sdk-ui',
        heartbeat: this.options.heartbeat,
        headers: session.setCookie === undefined ? {} : { 'set-cookie': session.setCookie },
        // The answer outlives this request: a reload resumes it (GET …/stream).
        resumable: { streams: this.options.streams, owner: session.id, streamId: id },
      });
    } catch (error) {
      if (!ResumableStreamLimitError.isInstance(error)) throw error;
      return sendError(res, 429, 'Too many answers are running in this session.');
    }
    this.record(`${session.id}\n${id}`, uiMessages, { owner: session.id, streamId: id });
  }

  /**
   * `GET /api/chat/<id>/stream` (useChat's `resume: true` on load): the chat's running answer
   * from its start, then live; 204 when none runs (an ended answer is in the messages), or
   * when it continues a message after approvals (useChat's resume starts a new message, which
   * lacks the calls those results belong to).
   * @param req The request.
   * @param res The response.
   * @param chatId The chat id.
   */
  resume(req: IncomingMessage, res: ServerResponse, chatId: string): void {
    const owner = sessionOf(req).id;
    const chat = this.chats.get(`${owner}\n${chatId}`);
    if (chat?.answering !== true || chat.continuation) return void res.writeHead(204).end();
    this.track(res);
    this.options.streams.resumeToNodeResponse({ owner, streamId: chatId }, req, res, {
      heartbeat: this.options.heartbeat,
    });
  }

  /**
   * `DELETE /api/chat/<id>/stream` (the Stop button): ends the running answer, which aborts
   * its model request and tools. 204, or 404 when this session has no such answer.
   * @param req The request.
   * @param res The response.
   * @param chatId The chat id.
   */
  async cancel(req: IncomingMessage, res: ServerResponse, chatId: string): Promise<void> {
    const found = await this.options.streams.delete({ owner: sessionOf(req).id, streamId: chatId });
    res.writeHead(found ? 204 : 404).end();
  }

  /**
   * `GET /api/chat/<id>/messages`: `{ messages, answering }`, the chat's UI messages (the
   * page passes them to `useChat` on load): the list it posted last, and the answer once that
   * ended; a running answer (`answering: true`) comes from the resume.
   * @param req The request.
   * @param res The response.
   * @param chatId The chat id.
   */
  messages(req: IncomingMessage, res: ServerResponse, chatId: string): void {
    const chat = this.chats.get(`${sessionOf(req).id}\n${chatId}`);
    const body = { messages: chat?.messages ?? [], answering: chat?.answering ?? false };
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  }

  /**
   * Breaks every connection streaming an answer, as a network failure would: the answers go
   * on (they are resumable), and the pages reconnect. A test hook.
   * @returns How many connections were broken.
   */
  dropConnections(): number {
    const dropped = this.streaming.size;
    for (const res of this.streaming) res.destroy();
    this.streaming.clear();
    return dropped;
  }

  private track(res: ServerResponse): void {
    this.streaming.add(res);
    res.once('close', () => this.streaming.delete(res));
  }

  /**
   * Keeps the posted list, then reads the answer to its end (the AI SDK's own reader over
   * the stream's frames) and keeps it with the list.
   */
  private record(key: string, posted: UIMessage[], stream: ResumableStreamKey): void {
    const last = posted.at(-1);
    const continued = last?.role === 'assistant' ? last : undefined;
    const chat: ChatRecord = {
      messages: posted,
      answering: true,
      continuation: continued !== undefined,
    };
    this.keep(key, chat);
    const recorded = recordAnswer(this.options.streams.resume(stream), continued);
    void recorded
      .catch(() => undefined)
      .then((answer) => {
        if (this.chats.get(key) !== chat) return; // a newer question, or evicted
        const before = continued === undefined ? posted : posted.slice(0, -1);
        this.keep(key, {
          messages: answer === undefined ? posted : [...before, answer],
          answering: false,
          continuation: false,
        });
      });
  }

  private keep(key: string, chat: ChatRecord): void {
    this.chats.delete(key); // re-inserted last: the Map's order is the age order
    this.chats.set(key, chat);
    for (const oldest of this.chats.keys()) {
      if (this.chats.size <= this.options.maxChats) break;
      this.chats.delete(oldest);
    }
  }
}

function sendError(res: ServerResponse, status: number, error: string): void {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' }).end(error);
}
