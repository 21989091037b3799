import type { Observable } from 'rxjs';
import { ResumableStreamError } from '../errors/resumable-stream-error.js';

/**
 * A value, or a promise of it: store methods may answer at once (in memory) or later (over
 * the network).
 *
 * @example
 * ```ts
 * import type { MaybePromise } from 'rx-advisors/sse';
 * const size: MaybePromise<number> = Promise.resolve(3);
 * ```
 */
export type MaybePromise<T> = T | PromiseLike<T>;

/**
 * The identity of a resumable stream: its owner (a user or session id: who may read,
 * replace and cancel it) and its id within that owner. Two owners never see each other's
 * streams, whatever ids they choose.
 *
 * @example
 * ```ts partial
 * import type { ResumableStreamKey } from 'rx-advisors/sse';
 * const key: ResumableStreamKey = { owner: session.userId, streamId: streams.createStreamId() };
 * ```
 */
export interface ResumableStreamKey {
  /** Who the stream belongs to (non-empty). */
  readonly owner: string;
  /** The stream's id within its owner (non-empty). */
  readonly streamId: string;
}

/**
 * What a store keeps about a stream besides its frames.
 *
 * @example
 * ```ts
 * import type { ResumableStreamInfo } from 'rx-advisors/sse';
 * const info: ResumableStreamInfo = { encoder: 'ai-sdk-ui' };
 * ```
 */
export interface ResumableStreamInfo {
  /** The name of the `SseEncoder` that wrote the frames (for headers and resume errors). */
  readonly encoder: string;
}

/**
 * Where resumable streams live: the frames of each stream, in order, with their owner and
 * expiry. `ResumableStreams` is the front (ids, ownership, HTTP adapters, running the
 * chunks); a store only keeps and serves frames. The in-memory store
 * (`InMemoryResumableStreamStore`) is the default; a store over Redis or another shared
 * service implements the same interface, so a stream started in one process can be resumed
 * and cancelled from another.
 *
 * Contract (see docs/sse.md, "Writing a store"):
 * - every method may answer asynchronously (`MaybePromise`), except `read` and `ended`,
 *   which are Observables;
 * - the front calls `create` once, then `append` for each event frame in order (without
 *   waiting for earlier appends: an asynchronous store keeps the order of its calls), then
 *   `complete`; event ids are 1, 2, 3, … in append order (the frames' own `id:` lines);
 * - `read` serves the frames after an event id, then the live ones, and completes after the
 *   last frame of a completed stream; it fails with a `ResumableStreamError` (`'not-found'`,
 *   `'ended'`, `'evicted'`, `'ahead'`) when it cannot serve the stream without a gap;
 * - `ended` emits once (then completes) when a stream is cancelled, replaced, evicted or
 *   expired, from whatever process: the front stops the model request when it does;
 * - a store enforces `maxStreamsPerOwner` in `create` (`ResumableStreamLimitError`) and its
 *   own expiry (a stream nobody reads for its `ttl` is dropped).
 *
 * @example
 * ```ts
 * import { ResumableStreams, type ResumableStreamStore } from 'rx-advisors/sse';
 * declare const redisStore: ResumableStreamStore; // your implementation
 * const streams = new ResumableStreams({ store: redisStore });
 * ```
 */
export interface ResumableStreamStore {
  /**
   * Keeps a new, empty stream under `key`, ending the stream that had this key (its readers
   * get `'ended'`, its `ended` emits). May evict other streams to stay within its bounds.
   * @param key Owner and id.
   * @param info What to keep besides the frames.
   * @throws ResumableStreamLimitError when the owner already keeps too many running streams.
   */
  create(key: ResumableStreamKey, info: ResumableStreamInfo): MaybePromise<void>;
  /**
   * The stream's info, or `undefined` when the owner has no stream with this id.
   * @param key Owner and id.
   */
  get(key: ResumableStreamKey): MaybePromise<ResumableStreamInfo | undefined>;
  /**
   * Appends the next event frame (ignored when the stream is gone).
   * @param key Owner and id.
   * @param frame One complete SSE event, ending with a blank line.
   */
  append(key: ResumableStreamKey, frame: string): MaybePromise<void>;
  /**
   * Marks the stream finished: readers complete after its last frame.
   * @param key Owner and id.
   */
  complete(key: ResumableStreamKey): MaybePromise<void>;
  /**
   * The frames after event `after` (0 for all), then the live ones until the stream
   * completes. A subscription counts as a connected reader (for expiry).
   * @param key Owner and id.
   * @param after The last event id the client saw.
   */
  read(key: ResumableStreamKey, after: number): Observable<string>;
  /**
   * Ends a stream now (a stop button): readers fail with `'ended'`, `ended` emits.
   * @param key Owner and id.
   * @returns Whether the owner had such a stream.
   */
  cancel(key: ResumableStreamKey): MaybePromise<boolean>;
  /**
   * Emits once when the stream ends without completing (cancelled, replaced, evicted,
   * expired), in this process or another.
   * @param key Owner and id.
   */
  ended(key: ResumableStreamKey): Observable<void>;
  /** Streams kept, when the store can tell cheaply (the in-memory store can). */
  readonly size?: number;
  /** Ends every stream this store instance keeps and stops its timers (server shutdown). */
  clear?(): MaybePromise<void>;
}

/**
 * The error of a read whose stream the owner does not have (unknown, expired, cancelled).
 * @internal
 */
export function streamNotFound(streamId: string): ResumableStreamError {
  return new ResumableStreamError({
    streamId,
    reason: 'not-found',
    message: 'There is no such stream (unknown, expired or cancelled).',
  });
}
