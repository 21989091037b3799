import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isObservable, type Observable, type Subscription } from 'rxjs';
import { ProviderError, type ChatChunk } from '../../lib/index.js';
import {
  pipeToNodeResponse,
  ResumableStreams,
  type ResumableStreamRestorer,
  type ResumableStreamsOptions,
  type SseErrorMessage,
} from '../../lib/sse/index.js';
import { cutResponseAfterTextDeltas } from './cut-response-after-text-deltas.js';
import { readChatMessage, type ChatDecision } from './read-chat-message.js';
import { sendJson } from './send-json.js';
import { sessionOf } from './session-cookie.js';

/** The response header of `POST /api/chat` that names the stream for a resume or a cancel. */
export const STREAM_ID_HEADER = 'x-stream-id';

/** The longest `?grace=` of a cancel, in milliseconds. */
export const MAX_CANCEL_GRACE_MS = 10_000;

/** A request `chunksFor` refused: the HTTP status and what to send instead. */
export interface BadRequest {
  status: number;
  error: string;
}

/** Options of {@link ChatStreamEndpoints}. */
export interface ChatStreamEndpointsOptions {
  /**
   * The chunks of one chat turn: the user's message, or decisions on the calls awaiting
   * approval, in the session's conversation.
   */
  chunksFor: (
    input: string | ChatDecision[],
    conversationId: string,
    streamId: string,
  ) => Promise<Observable<ChatChunk> | BadRequest> | Observable<ChatChunk>;
  /** Milliseconds between SSE heartbeat comments, or `false`. */
  heartbeat: number | false;
  /** Server log lines. */
  log: (line: string) => void;
  /** The registry's bounds: buffer per stream, ttl without a client, streams kept. */
  resume: ResumableStreamsOptions;
  /** A registry to use instead (`RedisResumableStreams`, shared by instances); `resume` is then unused. */
  streams?: ResumableStreams | undefined;
  /** Test hook: cut every `POST /api/chat` response after this many text deltas. */
  cutResponsesAfterTextDeltas?: number | undefined;
  /**
   * Restores a stream the in-memory registry lost (the server restarted): the durable run's
   * rest after the page's last event (`durableRunRestorer`); unused with `streams`.
   */
  restore?: ResumableStreamRestorer | undefined;
}

/**
 * The demo's chat streams: `POST /api/chat` starts one in a `ResumableStreams` registry and
 * names it in the `x-stream-id` header; `GET /api/chat/<id>` resumes it after the request's
 * `Last-Event-ID` (204 when unknown or expired); `DELETE /api/chat/<id>` cancels it (the
 * model request and tools are aborted). A stream belongs to the browser session that started
 * it: another session's resume gets 204 and its cancel 404.
 *
 * @example
 * ```ts
 * const endpoints = new ChatStreamEndpoints({ chunksFor, heartbeat: 15_000, log, resume: {} });
 * createServer((req, res) => void endpoints.start(req, res)).listen(3000);
 * ```
 */
export class ChatStreamEndpoints {
  private readonly streams: ResumableStreams;
  private readonly responses = new Set<Subscription>();
  /** Cancels sent with `?grace=`: they run unless the stream is resumed first. */
  private readonly pendingCancels = new Map<string, ReturnType<typeof setTimeout>>();

  /** @param options How a turn's chunks are made, heartbeat, log, registry bounds. */
  constructor(private readonly options: ChatStreamEndpointsOptions) {
    const { restore } = options;
    this.streams =
      options.streams ??
      new ResumableStreams({
        ...options.resume,
        ...(restore === undefined
          ? {}
          : { restore, restoreOptions: { errorMessage: this.errorMessage } }),
      });
  }

  /** Chat responses (`POST /api/chat` and resumes) being sent right now. */
  get activeResponses(): number {
    return this.responses.size;
  }

  /** Streams kept for a resume: running, or finished less than the ttl ago. */
  get keptStreams(): number {
    return this.streams.size;
  }

  /**
   * `POST /api/chat` with `{ "message": "…" }`: streams the answer as SSE (415/400/413 JSON
   * errors for bad requests).
   * @param req The request.
   * @param res The response.
   */
  async start(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (!/^application\/json\b/i.test(req.headers['content-type'] ?? '')) {
      return sendJson(res, 415, { error: 'Send the message as JSON: {"message": "…"}.' });
    }
    const message = await readChatMessage(req);
    if (typeof message !== 'string' && !Array.isArray(message)) {
      return sendJson(res, message.status, { error: message.error });
    }
    const session = sessionOf(req);
    const streamId = randomUUID();
    const { cutResponsesAfterTextDeltas: cutAfter, heartbeat } = this.options;
    const made = await this.options.chunksFor(message, session.id, streamId);
    if (!isObservable(made)) return sendJson(res, made.status, { error: made.error });
    let chunks$ = made;
    if (cutAfter !== undefined) chunks$ = chunks$.pipe(cutResponseAfterTextDeltas(res, cutAfter));
    const headers: Record<string, string> = { [STREAM_ID_HEADER]: streamId };
    if (session.setCookie !== undefined) headers['set-cookie'] = session.setCookie;
    const subscription = pipeToNodeResponse(chunks$, res, {
      heartbeat,
      headers,
      errorMessage: this.errorMessage,
      // The stream outlives this response: a dropped connection no longer aborts the model;
      // the registry's ttl (no client for that long) or a DELETE does.
      resumable: { streams: this.streams, owner: session.id, streamId },
    });
    this.track(res, subscription);
  }

  /**
   * `GET /api/chat/<id>`: the events after the request's `Last-Event-ID`, then the live ones;
   * HTTP 204 when this session has no such stream (unknown, cancelled or expired).
   * @param req The request.
   * @param res The response.
   * @param streamId The id from the `x-stream-id` header.
   */
  resume(req: IncomingMessage, res: ServerResponse, streamId: string): void {
    const owner = sessionOf(req).id;
    const pending = this.pendingCancels.get(streamId);
    if (pending !== undefined) {
      // A page that said "cancel unless I come back" came back: a reload, not a close.
      clearTimeout(pending);
      this.pendingCancels.delete(streamId);
    }
    this.track(res, this.streams.resumeToNodeResponse({ owner, streamId }, req, res));
  }

  /**
   * `DELETE /api/chat/<id>` (the Stop button, and a page being closed): ends the stream, which
   * aborts its model request and tools; connected readers get an `error` event. 204, or 404
   * when this session has no such stream. With `?grace=<ms>` (a page being hidden, which may
   * be a reload) it answers 202 and cancels after that long unless a resume of the stream
   * arrives first.
   * @param req The request.
   * @param res The response.
   * @param streamId The id from the `x-stream-id` header.
   */
  cancel(req: IncomingMessage, res: ServerResponse, streamId: string): void {
    const owner = sessionOf(req).id;
    const grace = Number(new URL(req.url ?? '', 'http://demo').searchParams.get('grace') ?? 0);
    if (Number.isInteger(grace) && grace > 0 && grace <= MAX_CANCEL_GRACE_MS) {
      clearTimeout(this.pendingCancels.get(streamId));
      const timer = setTimeout(() => {
        this.pendingCancels.delete(streamId);
        void this.streams.delete({ owner, streamId });
      }, grace);
      this.pendingCancels.set(streamId, timer);
      return void res.writeHead(202).end();
    }
    void this.streams.delete({ owner, streamId }).then((found) => {
      if (found) res.writeHead(204).end();
      else sendJson(res, 404, { error: 'This session has no answer stream with this id.' });
    });
  }

  /** What the page is told of a failure (the stream's own, a retry reason, a tool's error). */
  private readonly errorMessage: SseErrorMessage = (error, source) => {
    // Retry reasons come from the same redacted provider errors; the demo's tool errors
    // are its own texts: both go out as they are.
    if (source.kind !== 'error') return String(error);
    this.options.log(`chat stream failed: ${error instanceof Error ? error.stack : String(error)}`);
    // Provider errors are redacted by the adapters, and say what to fix (a bad key…).
    return ProviderError.isInstance(error)
      ? error.message
      : 'The stream failed on the server (see its log).';
  };

  /** Stops every response, then every stream (model requests and tools aborted, timers stopped). */
  close(): void {
    // Responses first, so their clients get no `error` event from the registry while the
    // server shuts down (the page then sees a dropped connection).
    for (const response of this.responses) response.unsubscribe();
    this.responses.clear();
    for (const timer of this.pendingCancels.values()) clearTimeout(timer);
    this.pendingCancels.clear();
    this.streams.clear();
  }

  private track(res: ServerResponse, subscription: Subscription): void {
    if (res.destroyed) return; // nothing was started for a client that is gone
    this.responses.add(subscription);
    res.once('close', () => this.responses.delete(subscription));
  }
}
