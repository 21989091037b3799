import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import {
  catchError,
  defer,
  from,
  Observable,
  of,
  type Subscription,
  switchMap,
  throwError,
} from 'rxjs';
import type { ChatChunk } from '../core/chat-chunk.js';
import { InvalidOptionsError } from '../errors/invalid-options-error.js';
import { ResumableStreamLimitError } from '../errors/resumable-stream-limit-error.js';
import { chunkEventEncoder } from './chunk-event-encoder.js';
import { InMemoryResumableStreamStore } from './in-memory-resumable-stream-store.js';
import {
  isPromiseLike,
  resumeToNodeResponse,
  resumeToWebResponse,
  type ResumeAnswer,
} from './resume-responses.js';
import {
  streamNotFound,
  type ResumableStreamInfo,
  type ResumableStreamKey,
  type ResumableStreamStore,
} from './resumable-stream-store.js';
import { resumePlan, type ResumePlan } from './resumable-streams-plan.js';
import {
  checkRestorer,
  framesWithCursors,
  type ResumableStreamRestorer,
} from './resumable-streams-restore.js';
import type {
  ResumableStreamsOptions,
  ResumeOptions,
  ResumeResponseOptions,
} from './resumable-streams-options.js';
import {
  resolveHeartbeat,
  resolveSseOptions,
  type ServerSentEventsOptions,
} from './server-sent-events-options.js';
import {
  checkStreamKey,
  readStoredFrames,
  RESUME_FAILED,
  runResumableStream,
} from './run-resumable-stream.js';
import { resolveConnectionOptions } from './sse-connection-options.js';
import type { SseEncoder } from './encoder/sse-encoder.js';
import { sseHeaders } from './sse-headers.js';
import { toServerSentEvents } from './to-server-sent-events.js';
import { uiMessageStreamEncoder } from '../ui/ui-message-stream-encoder.js';

/**
 * SSE streams that clients resume with `Last-Event-ID`, kept in a {@link ResumableStreamStore}
 * (in memory by default). Every stream belongs to an owner: resume, replace and cancel only
 * reach the owner's own streams, and ids are unguessable by default.
 *
 * A stream started here runs independently of the request that started it: a client that
 * disconnects does not abort it. Reconnecting (`resumeToNodeResponse`, `resumeToWebResponse`
 * or `resume`) replays the stored events after `Last-Event-ID` and follows the rest live. The
 * store drops a stream nobody reads for its `ttl` (its model request is then aborted); a
 * resume the store cannot serve without a gap gets one clean `error` event; an unknown id
 * (or another owner's) gets HTTP 204, which tells both `EventSource` and the AI SDK's
 * `useChat` that there is nothing to resume.
 *
 * @example
 * ```ts partial
 * import { createServer } from 'node:http';
 * import { pipeToNodeResponse, ResumableStreams } from 'rx-advisors/sse';
 *
 * const streams = new ResumableStreams({ ttl: 60_000 });
 * createServer((req, res) => {
 *   const owner = sessionOf(req); // your authentication
 *   const streamId = new URL(req.url ?? '/', 'http://localhost').searchParams.get('stream');
 *   if (req.method === 'POST') {
 *     // The new stream's id goes out in the x-stream-id header.
 *     pipeToNodeResponse(client.prompt('Hello').stream().chunks(), res, { resumable: { streams, owner } });
 *   } else if (streamId !== null) {
 *     streams.resumeToNodeResponse({ owner, streamId }, req, res); // reads Last-Event-ID
 *   }
 * }).listen(3000);
 * process.on('SIGINT', () => streams.clear());
 * ```
 */
export class ResumableStreams {
  /** Where the streams live. */
  readonly store: ResumableStreamStore;
  private readonly encoders = new Map<string, SseEncoder>([
    [chunkEventEncoder.name, chunkEventEncoder],
    [uiMessageStreamEncoder.name, uiMessageStreamEncoder],
  ]);
  /** The streams this process runs the chunks of. */
  private readonly producers = new Set<Subscription>();
  /** @internal */
  readonly restorer: ResumableStreamRestorer | undefined;
  /** @internal */
  readonly restoreOptions: ServerSentEventsOptions;

  /** @param options A store, or the in-memory store's bounds; custom encoders; a restorer. */
  constructor(options: ResumableStreamsOptions = {}) {
    const { store, encoders = [], restore, restoreOptions = {}, ...bounds } = options;
    this.restorer = checkRestorer(restore);
    this.restoreOptions = restoreOptions;
    resolveSseOptions(restoreOptions);
    if (store !== undefined && Object.values(bounds).some((value) => value !== undefined)) {
      throw new InvalidOptionsError({
        option: 'store',
        value: store,
        expected: "either a store or the in-memory store's bounds, not both",
      });
    }
    this.store = store ?? new InMemoryResumableStreamStore(bounds);
    for (const encoder of encoders) this.encoders.set(encoder.name, encoder);
  }

  /** How many streams the store keeps (for the in-memory store), else the streams running here. */
  get size(): number {
    return this.store.size ?? this.producers.size;
  }

  /**
   * A new unguessable stream id: 128 random bits (Web Crypto), base64url.
   * @returns 22 characters.
   */
  createStreamId(): string {
    const bytes = crypto.getRandomValues(new Uint8Array(16));
    return btoa(String.fromCharCode(...bytes))
      .replace(/\+/g, '-')
      .replace(/\//g, '_')
      .replace(/=+$/, '');
  }

  /**
   * Whether the owner has a stream with this id (running, or finished and still resumable).
   * @param key Owner and stream id.
   * @returns A promise of `true` when `resume` would find it.
   */
  async has(key: ResumableStreamKey): Promise<boolean> {
    return (await this.store.get(key)) !== undefined;
  }

  /**
   * Keeps a chunk stream under `key` and returns its frames for the first client. The chunks
   * are subscribed once, when that Observable is first subscribed; starting a stream under a
   * key in use ends the previous one (only its owner can).
   * @param key Owner and stream id (`createStreamId()` makes an unguessable id).
   * @param chunks$ The chunks, e.g. `client.prompt(…).stream().chunks()`.
   * @param options As for `toServerSentEvents` (the heartbeat is this connection's).
   * @returns The frames from the first event on.
   * @throws ResumableStreamLimitError (from an in-memory store) when the owner keeps too many
   *   running streams; an asynchronous store's refusal becomes an `error` event instead.
   */
  start(
    key: ResumableStreamKey,
    chunks$: Observable<ChatChunk>,
    options: ServerSentEventsOptions = {},
  ): Observable<string> {
    checkStreamKey(key);
    const { encoder, heartbeat } = resolveSseOptions(options);
    this.encoders.set(encoder.name, encoder);
    const frames$ =
      this.restorer === undefined
        ? chunks$.pipe(toServerSentEvents({ ...options, heartbeat: false }))
        : framesWithCursors(chunks$, options, this.restorer);
    const created = this.store.create(key, { encoder: encoder.name });
    let producer: Subscription | undefined;
    const run = (): void => {
      if (producer !== undefined) return;
      producer = runResumableStream(this.store, key, frames$);
      const running = producer;
      if (running.closed) return;
      this.producers.add(running);
      running.add(() => this.producers.delete(running));
    };
    const reading$ = readStoredFrames(this.store, key, encoder, 0, heartbeat);
    const first$ = isPromiseLike(created)
      ? from(created).pipe(
          switchMap(() => reading$),
          // The limit error's text is ours; any other refusal may name the store's hosts.
          catchError((error: unknown) =>
            of(
              encoder.resumeError(
                ResumableStreamLimitError.isInstance(error) ? error.message : RESUME_FAILED,
              ),
            ),
          ),
        )
      : reading$;
    // Hand-written for its order, which is the point: the reader is subscribed before the
    // producer starts, so the first frames cannot slip past it. Composition would hide that
    // order in `merge`'s subscription order; there is no per-chunk cost either way.
    return new Observable<string>((subscriber) => {
      const subscription = first$.subscribe(subscriber);
      if (isPromiseLike(created)) created.then(run, () => undefined);
      else run();
      return subscription;
    });
  }

  /**
   * The frames of the owner's stream after `lastEventId`, then the live ones. A stream the
   * owner does not have fails with a `ResumableStreamError` (`'not-found'`); one the store
   * cannot serve without a gap gives one `error` event (no id), then completes.
   * @param key Owner and stream id.
   * @param options The last event id the client saw; the heartbeat of this connection.
   * @returns The frames.
   */
  resume(key: ResumableStreamKey, options: ResumeOptions = {}): Observable<string> {
    const heartbeat = resolveHeartbeat(options.heartbeat);
    return defer(() => {
      const plan = resumePlan(this, key, options.lastEventId, heartbeat);
      const answer = (found: ResumePlan | undefined): Observable<string> =>
        found === undefined ? throwError(() => streamNotFound(key.streamId)) : found.frames$;
      return isPromiseLike(plan) ? from(plan).pipe(switchMap(answer)) : answer(plan);
    });
  }

  /**
   * Answers a reconnect on a Node response: the rest of the owner's stream after the
   * request's `Last-Event-ID`, or HTTP 204 when the owner has no such stream.
   * @param key Owner and stream id.
   * @param req The request (only its headers are read).
   * @param res The response.
   * @param options Extra headers, heartbeat, slow-client bounds.
   * @returns The subscription writing the response (unsubscribe to stop).
   */
  resumeToNodeResponse(
    key: ResumableStreamKey,
    req: { headers: IncomingHttpHeaders },
    res: ServerResponse,
    options: ResumeResponseOptions = {},
  ): Subscription {
    const header = req.headers['last-event-id'];
    return resumeToNodeResponse(
      this.answer(key, Array.isArray(header) ? header[0] : header, options),
      res,
    );
  }

  /**
   * Answers a reconnect with a fetch `Response` (Hono, Next.js, Deno, Bun): the rest of the
   * owner's stream after the request's `Last-Event-ID`, or HTTP 204 when there is none.
   * @param key Owner and stream id.
   * @param request The request (only its headers are read).
   * @param options Extra headers, heartbeat, slow-client bounds.
   * @returns A promise of the response.
   */
  resumeToWebResponse(
    key: ResumableStreamKey,
    request: { headers: Headers },
    options: ResumeResponseOptions = {},
  ): Promise<Response> {
    return resumeToWebResponse(this.answer(key, request.headers.get('last-event-id'), options));
  }

  /**
   * Ends the owner's stream now: its model request is aborted and its clients' responses end.
   * @param key Owner and stream id.
   * @returns A promise of whether the owner had such a stream.
   */
  async delete(key: ResumableStreamKey): Promise<boolean> {
    return this.store.cancel(key);
  }

  /** Ends every stream this process runs and the store's own (at shutdown: stops timers). */
  clear(): void {
    for (const producer of [...this.producers]) producer.unsubscribe();
    void this.store.clear?.();
  }

  private answer(
    key: ResumableStreamKey,
    lastEventId: string | null | undefined,
    options: ResumeResponseOptions,
  ): ResumeAnswer {
    const connection = resolveConnectionOptions(options);
    const heartbeat = resolveHeartbeat(options.heartbeat);
    return {
      plan: resumePlan(this, key, lastEventId, heartbeat),
      connection,
      headers: (info) =>
        info === undefined
          ? { ...options.headers }
          : sseHeaders(this.encoderOf(info), options.headers),
    };
  }

  /** @internal */
  encoderOf(info: ResumableStreamInfo): SseEncoder {
    return this.encoders.get(info.encoder) ?? chunkEventEncoder;
  }
}
