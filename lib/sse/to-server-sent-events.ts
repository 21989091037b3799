import {
  asyncScheduler,
  Observable,
  Subscriber,
  type OperatorFunction,
  type SchedulerAction,
} from 'rxjs';
import type { ChatChunk } from '../core/chat-chunk.js';
import {
  resolveSseOptions,
  type ResolvedSseOptions,
  type ServerSentEventsOptions,
} from './server-sent-events-options.js';
import { HEARTBEAT_FRAME, SseFrameWriter } from './encoder/sse-frame-writer.js';
import type { SseStreamEncoder } from './encoder/sse-encoder.js';

/**
 * An operator from chat chunks to Server-Sent Events frames: each emitted string is one
 * complete frame (ending in a blank line), ready to write to an HTTP response.
 *
 * With the default `'rx-advisors'` protocol every chunk becomes `id: <n>` (1, 2, 3, … within
 * the stream), `event: <chunk.type>` and `data: <chunk JSON>`; a final `done` event ends a
 * stream that succeeded. A source error becomes one `error` event with a safe message
 * (`errorMessage` option), then the stream completes: the frames Observable never errors.
 * Data is JSON, which has no raw line breaks, so no model output can end a frame or forge an
 * event. Heartbeat comments (`: ping`) are sent every `heartbeat` ms of RxJS time.
 *
 * ```
 * chunks:  -a-b------f|
 * frames:  -A-Bh---h-F(D|)     (heartbeat: 4; A = `id: 1` event of a, h = `: ping`, D = done)
 * ```
 *
 * With `protocol: 'ai-sdk-ui'` the frames are the AI SDK UI message stream v1 (see
 * docs/sse.md); send them with the header `x-vercel-ai-ui-message-stream: v1`
 * (`pipeToNodeResponse` and `toWebResponse` do).
 *
 * @example
 * ```ts
 * import { toServerSentEvents } from 'rx-advisors/sse';
 *
 * client
 *   .prompt('Hello')
 *   .stream()
 *   .chunks()
 *   .pipe(toServerSentEvents({ heartbeat: 15_000 }))
 *   .subscribe((frame) => res.write(frame));
 * ```
 * @param options Protocol (a name or an `SseEncoder`), heartbeat interval and error text policy.
 * @returns An operator from `ChatChunk` to SSE frame strings.
 */
export function toServerSentEvents(
  options: ServerSentEventsOptions = {},
): OperatorFunction<ChatChunk, string> {
  const resolved = resolveSseOptions(options);
  return (source$) => framesOf(source$, resolved);
}

/**
 * `toServerSentEvents` with its options already checked (the response sinks check them
 * once per response, not twice).
 * @internal
 */
export function framesOf(
  source$: Observable<ChatChunk>,
  resolved: ResolvedSseOptions,
): Observable<string> {
  const { heartbeat } = resolved;
  const frames$ = encodeFrames(source$, resolved);
  return heartbeat === false ? frames$ : frames$.pipe(withHeartbeat(heartbeat));
}

/**
 * Adds a heartbeat comment every `heartbeat` ms (RxJS time) to a frame stream, until it ends.
 *
 * Hand-written rather than `connect` + `merge` + `takeUntil`: the frames go straight to the
 * subscriber (the source is subscribed with it, as `defer` does), so a frame costs no
 * operator hop and a stream no Subject and five inner subscriptions; the timer is one
 * scheduled action (as `interval` schedules it) torn down with the stream. Measured in W7 (docs/performance.md).
 * Same behaviour as the composition: the source is subscribed first, then the timer, which
 * stops when the source completes, errors or is unsubscribed.
 * @internal
 */
export function withHeartbeat(heartbeat: number | false): OperatorFunction<string, string> {
  if (heartbeat === false) return (frames$) => frames$;
  return (source$) =>
    new Observable<string>((subscriber) => {
      source$.subscribe(subscriber);
      // A source that ended synchronously needs no heartbeat.
      if (subscriber.closed) return undefined;
      // What `interval` schedules, without its Observable and subscriber: one action per
      // stream, rescheduled every `heartbeat` ms (its Node timer is reused).
      return asyncScheduler.schedule(function (this: SchedulerAction<undefined>) {
        subscriber.next(HEARTBEAT_FRAME);
        this.schedule(undefined, heartbeat);
      }, heartbeat);
    });
}

/**
 * Encodes chunks into frames. Written as an Observable of its own rather than with
 * `mergeMap`, because one chunk may become several frames and composing would allocate an
 * array per chunk; the chunks are subscribed with one {@link ChunkEncoderSubscriber} (no
 * `SafeSubscriber` hop per chunk), and the frames go to the downstream subscriber as they are.
 */
function encodeFrames(
  source$: Observable<ChatChunk>,
  options: ResolvedSseOptions,
): Observable<string> {
  return new Observable<string>((subscriber) => {
    const encoder = options.encoder.create(new SseFrameWriter(subscriber), options);
    return source$.subscribe(new ChunkEncoderSubscriber(encoder, subscriber));
  });
}

/** The chunks' subscriber of {@link encodeFrames}: each chunk to the encoder. */
class ChunkEncoderSubscriber extends Subscriber<ChatChunk> {
  constructor(
    private readonly encoder: SseStreamEncoder,
    private readonly frames: Subscriber<string>,
  ) {
    super();
  }

  // `next` itself rather than `_next`: one call less per chunk.
  override next(chunk: ChatChunk): void {
    if (this.isStopped || this.frames.closed) return;
    try {
      this.encoder.chunk(chunk);
    } catch (error) {
      this.fail(error);
    }
  }

  protected override _error(error: unknown): void {
    this.fail(error);
  }

  protected override _complete(): void {
    try {
      this.encoder.complete();
      this.frames.complete();
    } catch (error) {
      this.fail(error);
    }
    this.unsubscribe();
  }

  private fail(error: unknown): void {
    this.unsubscribe();
    this.encoder.fail(error);
    this.frames.complete();
  }
}
