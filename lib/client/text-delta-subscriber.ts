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
 * @internal
 */
export class TextDeltaSubscriber extends Subscriber<ChatChunk> {
  private refusesToolCalls = false;
  private watcher: ChunkWatcher | undefined;
  /** Whether text deltas pass without telling the watcher (false until its first chunk). */
  private quiet = true;

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

  protected override _next(chunk: ChatChunk): void {
    if (chunk.type === 'text-delta') {
      if (!this.quiet) this.tell(chunk);
      this.destination.next(chunk.text);
      return;
    }
    if (this.watcher !== undefined) this.tell(chunk);
    // As the guard's own subscriber: the call fails downstream, then the model call is left.
    if (chunk.type === 'tool-call' && this.refusesToolCalls) this.error(noToolsError(chunk));
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
