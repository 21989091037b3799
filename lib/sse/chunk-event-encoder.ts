import type { ChatChunk } from '../core/chat-chunk.js';
import type { SseEncoder, SseStreamEncoder } from './encoder/sse-encoder.js';
import type { SseErrorPolicy } from './encoder/sse-error-policy.js';
import {
  eventLine,
  eventLineWriter,
  frameWithoutId,
  type EventLineWriter,
} from './encoder/sse-frame-writer.js';

const DONE_LINE = eventLine('done');
const ERROR_LINE = eventLine('error');

/** The per-stream encoder of {@link chunkEventEncoder}. */
class ChunkEventStreamEncoder implements SseStreamEncoder {
  constructor(
    private readonly frames: EventLineWriter,
    private readonly errors: SseErrorPolicy,
  ) {}

  chunk(chunk: ChatChunk): void {
    // Texts that come from an error follow the errorMessage policy (a copy of the chunk on
    // these rare paths only; the per-chunk path stays one JSON.stringify).
    const safe =
      chunk.type === 'retry'
        ? { ...chunk, reason: this.errors.retryReason(chunk) }
        : chunk.type === 'tool-result' && chunk.isError === true
          ? { ...chunk, content: this.errors.toolError(chunk) }
          : chunk;
    // JSON escapes CR and LF, so the data stays on one line whatever the model wrote.
    const data: unknown = JSON.stringify(safe);
    if (typeof data !== 'string') throw new TypeError('A chunk must be a JSON object.');
    this.frames.write(eventLine(chunk.type), data);
  }

  complete(): void {
    this.frames.write(DONE_LINE, '{}');
  }

  fail(error: unknown): void {
    this.frames.write(ERROR_LINE, errorData(this.errors.error(error)));
  }
}

function errorData(message: string): string {
  return JSON.stringify({ message });
}

/**
 * The `'rx-advisors'` protocol as an encoder: every chunk is one event named after its
 * `type`, with the chunk's JSON as data; `done` ends a stream that succeeded, `error`
 * (`{"message":"…"}`) one that failed. Retry reasons and tool error results follow the
 * `errorMessage` policy.
 *
 * @example
 * ```ts
 * import { chunkEventEncoder, toServerSentEvents } from 'rx-advisors/sse';
 * chunks$.pipe(toServerSentEvents({ protocol: chunkEventEncoder })); // same as 'rx-advisors'
 * ```
 */
export const chunkEventEncoder: SseEncoder = {
  name: 'rx-advisors',
  headers: {},
  create: (sink, { errors }) => new ChunkEventStreamEncoder(eventLineWriter(sink), errors),
  resumeError: (message) => frameWithoutId(ERROR_LINE, errorData(message)),
};
