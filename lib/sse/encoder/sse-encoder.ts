import type { ChatChunk } from '../../core/chat-chunk.js';
import type { SseErrorPolicy } from './sse-error-policy.js';

/**
 * Where an encoder writes its events: each call is one SSE event, numbered by the sink
 * (`id: 1`, `2`, … within the stream).
 *
 * @example
 * ```ts
 * import type { SseEventSink } from 'rx-advisors/sse';
 * const writeDone = (sink: SseEventSink) => sink.event('done', '{}');
 * ```
 */
export interface SseEventSink {
  /**
   * Emits one event.
   * @param name The event name (`event:` line); `''` for an unnamed (`message`) event. CR and
   *   LF are removed.
   * @param data The data. Line breaks are written as several `data:` lines (which a client
   *   joins back with `\n`), so no text can end the event early or forge another one.
   */
  event(name: string, data: string): void;
}

/**
 * The encoder of one stream: it turns that stream's chunks into events and may keep state
 * (open parts, usage totals). Created per subscription by {@link SseEncoder.create}.
 *
 * @example
 * ```ts partial
 * import type { SseStreamEncoder } from 'rx-advisors/sse';
 * const textOnly = (sink: SseEventSink): SseStreamEncoder => ({
 *   chunk: (chunk) => chunk.type === 'text-delta' && sink.event('', JSON.stringify(chunk.text)),
 *   complete: () => sink.event('end', '{}'),
 *   fail: () => sink.event('error', '{}'),
 * });
 * ```
 */
export interface SseStreamEncoder {
  /** Encodes one chunk (zero or more events). May throw: the stream then fails. */
  chunk(chunk: ChatChunk): void;
  /** The source completed: the closing events. */
  complete(): void;
  /**
   * The source (or the encoding) failed: an error event, then the closing events if any.
   * Its text must come from `context.errors` (the `errorMessage` policy), never from the error.
   */
  fail(error: unknown): void;
}

/**
 * What an encoder gets for a stream besides its sink.
 *
 * @example
 * ```ts
 * import type { SseEncoderContext } from 'rx-advisors/sse';
 * const failText = ({ errors }: SseEncoderContext, error: unknown) => errors.error(error);
 * ```
 */
export interface SseEncoderContext {
  /**
   * The texts that may leave the server for what came from an error (the failure itself,
   * retry reasons, tool error results), per the `errorMessage` option.
   */
  readonly errors: SseErrorPolicy;
}

/**
 * A wire protocol for chat streams over SSE, as a value: `toServerSentEvents`,
 * `pipeToNodeResponse`, `toWebResponse` and `ResumableStreams` take one as their `protocol`
 * option. The two built-in protocols are the encoders `chunkEventEncoder` (`'rx-advisors'`)
 * and `uiMessageStreamEncoder` (`'ai-sdk-ui'`); write your own to speak another protocol.
 *
 * @example
 * ```ts
 * import { toServerSentEvents, type SseEncoder } from 'rx-advisors/sse';
 *
 * const textEvents: SseEncoder = {
 *   name: 'text-only',
 *   headers: {},
 *   create: (sink, { errors }) => ({
 *     chunk: (chunk) => {
 *       if (chunk.type === 'text-delta') sink.event('text', chunk.text);
 *     },
 *     complete: () => sink.event('end', ''),
 *     fail: (error) => sink.event('error', errors.error(error)),
 *   }),
 *   resumeError: (message) => `event: error\ndata: ${message}\n\n`,
 * };
 * chunks$.pipe(toServerSentEvents({ protocol: textEvents }));
 * ```
 */
export interface SseEncoder {
  /**
   * A unique name; resumable streams store it, so a resume (maybe in another process) finds
   * the encoder again (`ResumableStreams` option `encoders`).
   */
  readonly name: string;
  /** Response headers this protocol needs on top of the SSE ones (`{}` for none). */
  readonly headers: Readonly<Record<string, string>>;
  /**
   * The encoder of one stream.
   * @param sink Where its events go.
   * @param context The error-text policy.
   * @returns A fresh encoder (state per stream).
   */
  create(sink: SseEventSink, context: SseEncoderContext): SseStreamEncoder;
  /**
   * The complete frame(s), without ids, that answer a resume that cannot be served (the
   * message is the library's own text, safe to send). Must end with a blank line.
   * @param message What went wrong.
   * @returns SSE text.
   */
  resumeError(message: string): string;
}
