import { defer, from, of, switchMap, type Observable } from 'rxjs';
import type { ChatChunk } from '../core/chat-chunk.js';
import type { SseEncoder } from './encoder/sse-encoder.js';
import { isPromiseLike } from './resume-responses.js';
import type {
  MaybePromise,
  ResumableStreamInfo,
  ResumableStreamKey,
  ResumableStreamStore,
} from './resumable-stream-store.js';
import {
  checkedStoredFrames,
  parseEventId,
  type ResumableStreamRestorer,
} from './resumable-streams-restore.js';
import { readStoredFrames } from './run-resumable-stream.js';
import { resolveSseOptions, type ServerSentEventsOptions } from './server-sent-events-options.js';

/** How a resume is answered: the stream's info (for headers) and its frames. @internal */
export interface ResumePlan {
  readonly info: ResumableStreamInfo;
  readonly frames$: Observable<string>;
}

/** What {@link resumePlan} needs of `ResumableStreams`. @internal */
export interface ResumePlanSource {
  readonly store: ResumableStreamStore;
  readonly restorer: ResumableStreamRestorer | undefined;
  /** The SSE options of restored streams. */
  readonly restoreOptions: ServerSentEventsOptions;
  encoderOf(info: ResumableStreamInfo): SseEncoder;
  /** `ResumableStreams.start`: keeps chunks under `key` as a new stream, frames from the start. */
  start(
    key: ResumableStreamKey,
    chunks$: Observable<ChatChunk>,
    options: ServerSentEventsOptions,
  ): Observable<string>;
}

const GONE = 'Cannot resume: the stream is no longer available.';

/** `then` for a value that may be a promise: synchronous stores stay synchronous. */
function then<T, R>(value: MaybePromise<T>, next: (value: T) => MaybePromise<R>): MaybePromise<R> {
  return isPromiseLike(value) ? Promise.resolve(value).then(next) : next(value);
}

/**
 * How to answer a resume after `lastEventId`: `undefined` when the owner has no such stream
 * and none can be restored (HTTP 204); the stored frames after the id; with a restorer, a
 * restored stream when the store has none (a restart), has another incarnation than the
 * one the client read (its last event is not where its id says), or loses it while it is
 * read (on Redis: the instance running it died); an `error` frame for an id that is not ours.
 * @internal
 */
export function resumePlan(
  source: ResumePlanSource,
  key: ResumableStreamKey,
  lastEventId: string | number | null | undefined,
  heartbeat: number | false,
): MaybePromise<ResumePlan | undefined> {
  const { store, restorer } = source;
  const last = parseEventId(lastEventId);
  const restore = (cursor = last?.cursor): MaybePromise<ResumePlan | undefined> => {
    if (restorer === undefined || last === undefined) return undefined;
    return then(restorer.restore(key, cursor), (chunks$) => {
      if (chunks$ === undefined) return undefined;
      const options = { ...source.restoreOptions, heartbeat };
      const { encoder } = resolveSseOptions(options);
      return { info: { encoder: encoder.name }, frames$: source.start(key, chunks$, options) };
    });
  };
  return then(store.get(key), (info): MaybePromise<ResumePlan | undefined> => {
    if (info === undefined) return restore();
    const encoder = source.encoderOf(info);
    if (last === undefined) {
      const shown = JSON.stringify(String(lastEventId));
      return {
        info,
        frames$: of(
          encoder.resumeError(
            `Cannot resume: the Last-Event-ID ${shown} is not an event id of this stream.`,
          ),
        ),
      };
    }
    if (restorer !== undefined) {
      const restoreAfter = (cursor: string | undefined): Observable<string> =>
        defer(() => from(Promise.resolve(restore(cursor)))).pipe(
          switchMap((plan) => plan?.frames$ ?? of(encoder.resumeError(GONE))),
        );
      return {
        info,
        frames$: checkedStoredFrames(store, key, encoder, last, heartbeat, restoreAfter),
      };
    }
    return { info, frames$: readStoredFrames(store, key, encoder, last.seq, heartbeat) };
  });
}
