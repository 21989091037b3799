import { Subscriber } from 'rxjs';
import { WATCH_CHUNKS, type ChunkWatcher } from '../advisor-api/chunk-watch.js';
import type { ChatChunk } from '../core/chat-chunk.js';
import { noToolsError } from './no-tools-error.js';

/**
 * `stream().content()`'s one layer: passes on the text of the text deltas, drops the other
 * chunks. When the no-tools guard is the call's first advisor it hands its check to this
 * layer (`refuseToolCalls()`) instead of adding its own: the chunks it would pass on go
 * straight here, so one type check on this layer does both (one subscriber fewer per call,
 * one call fewer per chunk). A watcher (the telemetry advisor's) rides on the same check
 * ({@link WATCH_CHUNKS}): told the first chunk and the chunks that are not text deltas.
 *
 * Linked to its destination late: RxJS's `new Subscriber(destination)` adds the subscriber
 * to the destination's finalizers at once (an array, a parent link, and their removal at
 * the end: about 900 instructions of a 13-chunk call, docs/performance.md). This one is
 * created unlinked; `TextContent` returns it to RxJS as the teardown of its subscription
 * when the call is still running after `subscribe` (an asynchronous model: the usual link,
 * so an unsubscription aborts the model call at once), and not at all when the call ended
 * within it. While the model's `subscribe` runs, an unsubscription of the destination
 * reaches this layer at its next chunk, before anything is passed on, or right after the
 * delta whose consumer unsubscribed; the rest is left when `subscribe` returns (RxJS then
 * runs the teardown at once).
 * @internal
 */
export class TextDeltaSubscriber extends Subscriber<ChatChunk> {
  private refusesToolCalls = false;
  private watcher: ChunkWatcher | undefined;
  /** Whether text deltas pass without telling the watcher (false until its first chunk). */
  private quiet = true;

  /** @param out Receives the text (not linked to this subscriber: see the class). */
  constructor(private readonly out: Subscriber<string>) {
    super();
    this.destination = out;
  }

  /** From now on, a complete tool call fails the call with the no-tools guard's error. */
  refuseToolCalls(): void {
    this.refusesToolCalls = true;
  }

  [WATCH_CHUNKS](watcher: ChunkWatcher): boolean {
    if (this.watcher !== undefined && this.watcher !== watcher) return false;
    this.watcher = watcher;
    this.quiet = false;
    return true;
  }

  // `next` itself rather than `_next` (as `DirectSubscriber`): one call less per chunk,
  // about 200 instructions per 13-chunk call. A stopped subscriber drops the chunk, as
  // RxJS's does (without its `onStoppedNotification` hook, which no one sets on this layer).
  override next(chunk: ChatChunk): void {
    if (this.isStopped) return;
    const out = this.out;
    if (out.closed) {
      this.unsubscribe();
    } else if (chunk.type === 'text-delta') {
      if (!this.quiet) this.tell(chunk);
      out.next(chunk.text);
      // Its consumer unsubscribed: a synchronous model sees this layer closed at once.
      if (out.closed) this.unsubscribe();
    } else {
      if (this.watcher !== undefined) this.tell(chunk);
      // As the guard's own subscriber: the call fails downstream, then the model call is left.
      if (chunk.type === 'tool-call' && this.refusesToolCalls) this.error(noToolsError(chunk));
    }
  }

  protected override _error(error: unknown): void {
    this.watcher?.error(error);
    super._error(error);
  }

  protected override _complete(): void {
    this.watcher?.complete();
    super._complete();
  }

  private tell(chunk: ChatChunk): void {
    this.quiet = true;
    this.watcher?.next(chunk);
  }
}
