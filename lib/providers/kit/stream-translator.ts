import type { ChatChunk } from '../../core/chat-chunk.js';

/**
 * Where a stream translator writes chunks: the subscriber of the model's Observable.
 *
 * @example
 * ```ts
 * import type { ChunkSink } from 'rx-advisors/provider-kit';
 *
 * const sink: ChunkSink = { next: (chunk) => console.log(chunk.type) };
 * sink.next({ type: 'text-delta', text: 'Hi' });
 * ```
 */
export interface ChunkSink {
  /** Sends one chunk downstream. */
  next(chunk: ChatChunk): void;
}

/**
 * A per-call translator from one provider's stream events to chunks. `translateStream`
 * makes a fresh one per subscription, so it may keep state (open tool calls, usage) in
 * fields. Anything it throws becomes a `ProviderError` through `toProviderError`.
 *
 * @example
 * ```ts
 * import type { ChunkSink, StreamTranslator } from 'rx-advisors/provider-kit';
 *
 * type EchoEvent = { text: string };
 * class EchoTranslator implements StreamTranslator<EchoEvent> {
 *   event(event: EchoEvent, sink: ChunkSink): void {
 *     sink.next({ type: 'text-delta', text: event.text });
 *   }
 *   end(sink: ChunkSink): void {
 *     sink.next({ type: 'finish', reason: 'stop' });
 *   }
 * }
 * ```
 */
export interface StreamTranslator<TEvent> {
  /** Translates one event, writing zero or more chunks. */
  event(event: TEvent, sink: ChunkSink): void;
  /** The stream ended cleanly: write the closing chunks (tool calls, usage, finish). */
  end(sink: ChunkSink): void;
}
