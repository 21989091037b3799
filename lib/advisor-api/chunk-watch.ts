import type { Subscriber } from 'rxjs';
import type { ChatChunk } from '../core/chat-chunk.js';

/**
 * What a watcher riding on a library subscriber is told: the first chunk after it was
 * (re)armed, whatever its type, then every chunk that is not a text delta, and how the
 * stream ended (a cancel is the watcher's own teardown, added to the subscriber).
 * @internal
 */
export interface ChunkWatcher {
  /** The first chunk after arming, and every chunk that is not a `text-delta`. Must not throw. */
  next(chunk: ChatChunk): void;
  /** The stream completed (told before the subscriber passes the completion on). */
  complete(): void;
  /** The stream failed (told before the subscriber passes the error on). */
  error(error: unknown): void;
}

/**
 * The key of the optional method with which a library subscriber that checks every
 * chunk's type anyway (`stream().content()`'s) carries a {@link ChunkWatcher} in that
 * check, so a watcher (the telemetry advisor's) costs no subscriber layer of its own:
 * `[WATCH_CHUNKS](watcher)` takes the watcher (or the same one again, which re-arms its
 * first chunk) and says whether it did; a subscriber that already carries another says no.
 * @internal
 */
export const WATCH_CHUNKS: unique symbol = Symbol('rx-advisors.watchChunks');

/** A subscriber with the {@link WATCH_CHUNKS} slot. @internal */
export interface ChunkWatchingSubscriber extends Subscriber<ChatChunk> {
  [WATCH_CHUNKS](watcher: ChunkWatcher): boolean;
}

/**
 * Hands `watcher` to `subscriber` when it has the {@link WATCH_CHUNKS} slot.
 * @internal
 * @example
 * ```ts
 * if (!watchChunks(subscriber, watcher)) source$.subscribe(new WatchingLayer(subscriber, watcher));
 * ```
 * @param subscriber The subscriber the chunks go to.
 * @param watcher The watcher.
 * @returns Whether the subscriber carries the watcher now (the same one again re-arms it).
 */
export function watchChunks(subscriber: Subscriber<ChatChunk>, watcher: ChunkWatcher): boolean {
  const slot = (subscriber as Partial<ChunkWatchingSubscriber>)[WATCH_CHUNKS];
  return slot !== undefined && slot.call(subscriber, watcher);
}
