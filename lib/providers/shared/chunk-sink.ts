import type { ChatChunk } from '../../core/chat-chunk.js';

/**
 * Where a stream translator writes chunks (a subscriber).
 * @internal
 */
export interface ChunkSink {
  next(chunk: ChatChunk): void;
}

/**
 * A per-call translator from one provider's stream events to chunks.
 * @internal
 */
export interface StreamTranslator<TEvent> {
  /** Translates one event, writing zero or more chunks. */
  event(event: TEvent, sink: ChunkSink): void;
  /** The stream ended cleanly: write the closing chunks (tool calls, usage, finish). */
  end(sink: ChunkSink): void;
}
