import { Subscriber } from 'rxjs';
import type { ChatChunk } from '../core/chat-chunk.js';
import { noToolsError } from './no-tools-error.js';

/**
 * `stream().content()`'s one layer: passes on the text of the text deltas, drops the other
 * chunks. When the no-tools guard is the call's first advisor it hands its check to this
 * layer (`refuseToolCalls()`) instead of adding its own: the chunks it would pass on go
 * straight here, so one type check on this layer does both (one subscriber fewer per call,
 * one call fewer per chunk).
 * @internal
 */
export class TextDeltaSubscriber extends Subscriber<ChatChunk> {
  private refusesToolCalls = false;

  /** From now on, a complete tool call fails the call with the no-tools guard's error. */
  refuseToolCalls(): void {
    this.refusesToolCalls = true;
  }

  // `next` itself rather than `_next` (as `DirectSubscriber`): one call less per chunk,
  // about 200 instructions per 13-chunk call. A stopped subscriber drops the chunk, as
  // RxJS's does (without its `onStoppedNotification` hook, which no one sets on this layer).
  override next(chunk: ChatChunk): void {
    if (this.isStopped) return;
    if (chunk.type === 'text-delta') this.destination.next(chunk.text);
    // As the guard's own subscriber: the call fails downstream, then the model call is left.
    else if (chunk.type === 'tool-call' && this.refusesToolCalls) this.error(noToolsError(chunk));
  }
}
