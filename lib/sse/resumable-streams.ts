import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import { of, type Observable, type Subscription } from 'rxjs';
import type { ChatChunk } from '../core/chat-chunk.js';
import { InvalidOptionsError } from '../errors/invalid-options-error.js';
import { chunkEventResumeError } from './chunk-event-encoder.js';
import { framesToReadableStream } from './frames-to-readable-stream.js';
import { ResumableStreamEntry } from './resumable-stream-entry.js';
import { resolveSseOptions, type ServerSentEventsOptions } from './server-sent-events-options.js';
import { sseHeaders } from './sse-headers.js';
import { toServerSentEvents } from './to-server-sent-events.js';
import { uiMessageStreamResumeError } from './ui-message-stream-encoder.js';
import {
  resolveMaxPendingFrames,
  writeFramesToNodeResponse,
} from './write-frames-to-node-response.js';

/**
 * Options of {@link ResumableStreams}.
 *
 * @example
 * ```ts
 * import { ResumableStreams } from 'rx-advisors/sse';
 * const streams = new ResumableStreams({ maxBufferedFrames: 2000, ttl: 5 * 60_000, maxStreams: 500 });
 * ```
 */
export interface ResumableStreamsOptions {
  /** Events kept per stream for clients that reconnect (a ring: the oldest go first). Default 1000. */
  maxBufferedFrames?: number;
  /**
   * Milliseconds a stream lives without a connected client (RxJS time). A running stream keeps
   * running that long for a reconnect, then its model request is aborted; a finished one stays
   * resumable that long. Default 60000.
   */
  ttl?: number;
  /** Streams kept at once; starting one more ends the oldest. Default 1000. */
  maxStreams?: number;
}

/**
 * Options of {@link ResumableStreams.resume}.
 *
 * @example
 * ```ts
 * const frames$ = streams.resume(streamId, { lastEventId: req.headers['last-event-id'] as string });
 * ```
 */
export interface ResumeOptions {
  /**
   * The id of the last event the client saw (the `Last-Event-ID` header); none, `''` or `null`
   * replays the stream from its start.
   */
  lastEventId?: string | number | null | undefined;
}

/**
 * Options of the `resumeTo…` methods of {@link ResumableStreams}.
 *
 * @example
 * ```ts
 * streams.resumeToNodeResponse(streamId, req, res, { headers: { 'access-control-allow-origin': '*' } });
 * ```
 */
export interface ResumeResponseOptions {
  /** Extra response headers. */
  headers?: Record<string, string>;
  /** Frames held back for a slow client before it is disconnected; default 1000. */
  maxPendingFrames?: number;
}

/**
 * The `resumable` option of `pipeToNodeResponse` and `toWebResponse`: the registry that
 * keeps the stream, and its id.
 *
 * @example
 * ```ts
 * import { pipeToNodeResponse, ResumableStreams } from 'rx-advisors/sse';
 * const streams = new ResumableStreams();
 * pipeToNodeResponse(chunks$, res, { resumable: { streams, streamId: chatId } });
 * ```
 */
export interface ResumableRegistration {
  streams: ResumableStreams;
  streamId: string;
}

/**
 * A bounded, in-memory registry of SSE streams that clients can resume with `Last-Event-ID`.
 *
 * A stream started here runs independently of the request that started it: a client that
 * disconnects does not abort it. Reconnecting (`resumeToNodeResponse`, `resumeToWebResponse`
 * or `resume`) replays the buffered events after `Last-Event-ID` and follows the rest live.
 * A stream without clients for `ttl` ms is dropped (its model request aborted if it still
 * runs); one whose events were evicted from the buffer answers a resume with one clean
 * `error` event; an unknown id gets HTTP 204, which tells both `EventSource` and the AI SDK's
 * `useChat` that there is nothing to resume.
 *
 * @example
 * ```ts
 * import { createServer } from 'node:http';
 * import { pipeToNodeResponse, ResumableStreams } from 'rx-advisors/sse';
 *
 * const streams = new ResumableStreams({ maxBufferedFrames: 2000, ttl: 60_000 });
 * createServer((req, res) => {
 *   const url = new URL(req.url ?? '/', 'http://localhost');
 *   const streamId = url.searchParams.get('stream') ?? 'default';
 *   if (req.method === 'POST') {
 *     const chunks$ = client.prompt('Hello').stream().chunks();
 *     pipeToNodeResponse(chunks$, res, { resumable: { streams, streamId } });
 *   } else {
 *     streams.resumeToNodeResponse(streamId, req, res); // reads Last-Event-ID
 *   }
 * }).listen(3000);
 * process.on('SIGINT', () => streams.clear());
 * ```
 */
export class ResumableStreams {
  private readonly entries = new Map<string, ResumableStreamEntry>();
  private readonly maxBufferedFrames: number;
  private readonly ttl: number;
  private readonly maxStreams: number;

  /** @param options Buffer size, time to live and the number of streams kept. */
  constructor(options: ResumableStreamsOptions = {}) {
    const { maxBufferedFrames = 1000, ttl = 60_000, maxStreams = 1000 } = options;
    this.maxBufferedFrames = positiveInteger('maxBufferedFrames', maxBufferedFrames);
    this.maxStreams = positiveInteger('maxStreams', maxStreams);
    if (typeof ttl !== 'number' || !(ttl >= 0 && ttl < Infinity)) {
      throw new InvalidOptionsError({
        option: 'ttl',
        value: ttl,
        expected: 'a number of milliseconds >= 0',
      });
    }
    this.ttl = ttl;
  }

  /** How many streams are kept. */
  get size(): number {
    return this.entries.size;
  }

  /**
   * Whether a stream with this id is kept (running, or finished and still resumable).
   * @param streamId The stream id.
   * @returns `true` when `resume` would find it.
   */
  has(streamId: string): boolean {
    return this.entries.has(streamId);
  }

  /**
   * Keeps a chunk stream under `streamId` and returns its frames for the first client.
   * The chunks are subscribed once, when the first client subscribes; starting a stream under
   * an id in use ends the previous one.
   * @param streamId Any id the client can send back (a chat id, a UUID).
   * @param chunks$ The chunks, e.g. `client.prompt(…).stream().chunks()`.
   * @param options As for `toServerSentEvents`.
   * @returns The frames from the first event on.
   */
  start(
    streamId: string,
    chunks$: Observable<ChatChunk>,
    options: ServerSentEventsOptions = {},
  ): Observable<string> {
    if (typeof streamId !== 'string' || streamId === '') {
      throw new InvalidOptionsError({
        option: 'streamId',
        value: streamId,
        expected: 'a non-empty string',
      });
    }
    const { protocol } = resolveSseOptions(options);
    const frames$ = chunks$.pipe(toServerSentEvents(options));
    this.entries.get(streamId)?.dispose();
    for (const oldest of this.entries.values()) {
      if (this.entries.size < this.maxStreams) break;
      oldest.dispose();
    }
    const entry: ResumableStreamEntry = new ResumableStreamEntry({
      frames$,
      protocol,
      maxBufferedFrames: this.maxBufferedFrames,
      ttl: this.ttl,
      onDispose: () => {
        if (this.entries.get(streamId) === entry) this.entries.delete(streamId);
      },
    });
    this.entries.set(streamId, entry);
    return entry.read(0);
  }

  /**
   * The frames of a kept stream after `lastEventId`, then the live ones.
   * @param streamId The stream id.
   * @param options The last event id the client saw.
   * @returns The frames, or `undefined` when no stream has this id (unknown or expired).
   */
  resume(streamId: string, options: ResumeOptions = {}): Observable<string> | undefined {
    const entry = this.entries.get(streamId);
    return entry === undefined ? undefined : framesAfter(entry, options.lastEventId);
  }

  /**
   * Answers a reconnect on a Node response: the rest of the stream after the request's
   * `Last-Event-ID`, or HTTP 204 when there is no such stream.
   * @param streamId The stream id.
   * @param req The request (only its headers are read).
   * @param res The response.
   * @param options Extra headers, slow-client bound.
   * @returns The subscription writing the response (unsubscribe to stop).
   */
  resumeToNodeResponse(
    streamId: string,
    req: { headers: IncomingHttpHeaders },
    res: ServerResponse,
    options: ResumeResponseOptions = {},
  ): Subscription | undefined {
    const maxPendingFrames = resolveMaxPendingFrames(options.maxPendingFrames);
    const entry = this.entries.get(streamId);
    if (entry === undefined) {
      res.writeHead(204, options.headers).end();
      return undefined;
    }
    const header = req.headers['last-event-id'];
    const lastEventId = Array.isArray(header) ? header[0] : header;
    return writeFramesToNodeResponse(framesAfter(entry, lastEventId), res, {
      status: 200,
      headers: sseHeaders(entry.protocol, options.headers),
      maxPendingFrames,
    });
  }

  /**
   * Answers a reconnect with a fetch `Response` (Hono, Next.js, Deno, Bun): the rest of the
   * stream after the request's `Last-Event-ID`, or HTTP 204 when there is no such stream.
   * @param streamId The stream id.
   * @param request The request (only its headers are read).
   * @param options Extra headers, slow-client bound.
   * @returns The response.
   */
  resumeToWebResponse(
    streamId: string,
    request: { headers: Headers },
    options: ResumeResponseOptions = {},
  ): Response {
    const maxPendingFrames = resolveMaxPendingFrames(options.maxPendingFrames);
    const entry = this.entries.get(streamId);
    if (entry === undefined) {
      return new Response(null, { status: 204, headers: options.headers ?? {} });
    }
    const frames$ = framesAfter(entry, request.headers.get('last-event-id'));
    return new Response(framesToReadableStream(frames$, maxPendingFrames), {
      status: 200,
      headers: sseHeaders(entry.protocol, options.headers),
    });
  }

  /**
   * Ends a stream now: its model request is aborted and its clients' responses end.
   * @param streamId The stream id.
   * @returns Whether there was such a stream.
   */
  delete(streamId: string): boolean {
    const entry = this.entries.get(streamId);
    entry?.dispose();
    return entry !== undefined;
  }

  /** Ends every stream (call it when the server shuts down: it also stops their timers). */
  clear(): void {
    for (const entry of [...this.entries.values()]) entry.dispose();
  }
}

function positiveInteger(option: string, value: number): number {
  if (!Number.isInteger(value) || value < 1) {
    throw new InvalidOptionsError({ option, value, expected: 'a positive integer' });
  }
  return value;
}

/** The frames of `entry` after `lastEventId`, or one error frame when that is no id of ours. */
function framesAfter(
  entry: ResumableStreamEntry,
  lastEventId: string | number | null | undefined,
): Observable<string> {
  const after = parseLastEventId(lastEventId);
  if (after !== undefined) return entry.read(after);
  const message = `Cannot resume: the Last-Event-ID ${JSON.stringify(String(lastEventId))} is not an event id of this stream.`;
  return of(
    entry.protocol === 'ai-sdk-ui'
      ? uiMessageStreamResumeError(message)
      : chunkEventResumeError(message),
  );
}

/** `Last-Event-ID` → the events already seen; `undefined` when it is not an id of ours. */
function parseLastEventId(value: string | number | null | undefined): number | undefined {
  if (value === undefined || value === null || value === '') return 0;
  if (typeof value === 'number') return Number.isInteger(value) && value >= 0 ? value : undefined;
  return /^\d{1,15}$/.test(value) ? Number(value) : undefined;
}
