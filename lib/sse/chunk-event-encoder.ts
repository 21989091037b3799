import type { ChatChunk } from '../core/chat-chunk.js';
import { errorText, type SseErrorMessage } from './server-sent-events-options.js';
import { eventLine, frameWithoutId, type SseFrameWriter } from './sse-frame-writer.js';

/**
 * Turns the chunks of one stream into SSE events, per protocol. One instance per
 * subscription: encoders keep the state of the stream they encode.
 * @internal
 */
export interface ChunkEncoder {
  /** Encodes one chunk (zero or more events). May throw (a chunk JSON cannot represent). */
  chunk(chunk: ChatChunk): void;
  /** The source completed: the closing events. */
  complete(): void;
  /** The source (or the encoding) failed: an error event, then the closing events if any. */
  fail(error: unknown): void;
}

const DONE_LINE = eventLine('done');
const ERROR_LINE = eventLine('error');

/**
 * The `'rx-advisors'` protocol: every chunk is one event named after its `type`, with the
 * chunk's JSON as data; `done` ends a stream that succeeded, `error` one that failed.
 * @internal
 */
export class ChunkEventEncoder implements ChunkEncoder {
  constructor(
    private readonly frames: SseFrameWriter,
    private readonly errorMessage: SseErrorMessage,
  ) {}

  chunk(chunk: ChatChunk): void {
    // The one unavoidable per-chunk cost: the chunk's JSON. JSON escapes CR and LF, so the
    // data stays on one line whatever the model wrote.
    const data: unknown = JSON.stringify(chunk);
    if (typeof data !== 'string') throw new TypeError('A chunk must be a JSON object.');
    this.frames.write(eventLine(chunk.type), data);
  }

  complete(): void {
    this.frames.write(DONE_LINE, '{}');
  }

  fail(error: unknown): void {
    this.frames.write(ERROR_LINE, errorData(errorText(error, this.errorMessage)));
  }
}

function errorData(message: string): string {
  return JSON.stringify({ message });
}

/**
 * The `'rx-advisors'` error frame of a failed resume (no id: it is not part of the stream).
 * @internal
 */
export function chunkEventResumeError(message: string): string {
  return frameWithoutId(ERROR_LINE, errorData(message));
}
