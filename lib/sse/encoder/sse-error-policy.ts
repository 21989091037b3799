import type { RetryChunk, ToolResultChunk } from '../../core/chat-chunk.js';
import { errorMessageOf } from '../../errors/error-details.js';

/**
 * What the `errorMessage` option is asked about: the failure of the stream, the reason of a
 * `retry` chunk, or the text of a tool error result (`tool-result` with `isError`).
 *
 * @example
 * ```ts
 * import type { SseErrorSource } from 'rx-advisors/sse';
 * const source: SseErrorSource = { kind: 'retry', chunk: { type: 'retry', attempt: 2, reason: '429', advisor: 'retry' } };
 * ```
 */
export type SseErrorSource =
  | { readonly kind: 'error' }
  | { readonly kind: 'retry'; readonly chunk: RetryChunk }
  | { readonly kind: 'tool-error'; readonly chunk: ToolResultChunk };

/**
 * What leaves the server for every text that comes from an error (a failed stream, a retry
 * reason, a tool error result):
 * - `'safe'` (default): a fixed, generic text; nothing from the error leaves the server;
 * - `'raw'`: the text itself (the error's `message`, the retry reason, the tool result); only
 *   when you know it holds no secrets;
 * - a function: your own text. It gets the error (for a retry: its reason; for a tool error:
 *   the result text) and what is being encoded; when it throws or returns no string, the safe
 *   text is sent.
 *
 * @example
 * ```ts
 * import { ProviderError } from 'rx-advisors';
 * import type { SseErrorMessage } from 'rx-advisors/sse';
 * const errorMessage: SseErrorMessage = (error, source) =>
 *   source.kind === 'error' && ProviderError.isInstance(error) && error.retryable
 *     ? 'The model is busy, try again.'
 *     : 'Something went wrong.';
 * ```
 */
export type SseErrorMessage = 'safe' | 'raw' | ((error: unknown, source: SseErrorSource) => string);

/**
 * The text of an `error` event in safe mode.
 *
 * @example
 * ```ts
 * import { SAFE_ERROR_MESSAGE } from 'rx-advisors/sse';
 * const isSafe = (text: string) => text === SAFE_ERROR_MESSAGE;
 * ```
 */
export const SAFE_ERROR_MESSAGE = 'The stream failed on the server.';
/**
 * The reason of a `retry` event in safe mode.
 *
 * @example
 * ```ts
 * import { SAFE_RETRY_REASON } from 'rx-advisors/sse';
 * const wasRedacted = (reason: string) => reason === SAFE_RETRY_REASON;
 * ```
 */
export const SAFE_RETRY_REASON = 'The previous attempt did not succeed; trying again.';
/**
 * The text of a tool error result in safe mode.
 *
 * @example
 * ```ts
 * import { SAFE_TOOL_ERROR } from 'rx-advisors/sse';
 * const wasRedacted = (text: string) => text === SAFE_TOOL_ERROR;
 * ```
 */
export const SAFE_TOOL_ERROR = 'The tool failed.';

const ERROR_SOURCE: SseErrorSource = { kind: 'error' };

/**
 * The `errorMessage` policy as encoders use it: one method per kind of text that comes from
 * an error. Never throws.
 *
 * @example
 * ```ts
 * import type { SseEncoder } from 'rx-advisors/sse';
 * const create: SseEncoder['create'] = (sink, { errors }) => ({
 *   chunk: (chunk) => chunk.type === 'retry' && sink.event('retry', errors.retryReason(chunk)),
 *   complete: () => sink.event('end', ''),
 *   fail: (error) => sink.event('error', errors.error(error)),
 * });
 * ```
 */
export class SseErrorPolicy {
  /** @param errorMessage The policy (`'safe'`, `'raw'` or a function). */
  constructor(readonly errorMessage: SseErrorMessage) {}

  /**
   * The text that says a stream failed.
   * @param error What the stream failed with.
   * @returns The text to send.
   */
  error(error: unknown): string {
    if (this.errorMessage === 'raw') return messageOf(error);
    return this.ask(error, ERROR_SOURCE, SAFE_ERROR_MESSAGE);
  }

  /**
   * The reason a `retry` chunk goes out with.
   * @param chunk The retry chunk.
   * @returns The text to send.
   */
  retryReason(chunk: RetryChunk): string {
    if (this.errorMessage === 'raw') return chunk.reason;
    return this.ask(chunk.reason, { kind: 'retry', chunk }, SAFE_RETRY_REASON);
  }

  /**
   * The text a tool error result goes out with (results without `isError` are not errors and
   * go out as they are).
   * @param chunk The `tool-result` chunk with `isError: true`.
   * @returns The text to send.
   */
  toolError(chunk: ToolResultChunk): string {
    if (this.errorMessage === 'raw') return chunk.content;
    return this.ask(chunk.content, { kind: 'tool-error', chunk }, SAFE_TOOL_ERROR);
  }

  private ask(error: unknown, source: SseErrorSource, safe: string): string {
    const { errorMessage } = this;
    if (typeof errorMessage !== 'function') return safe;
    try {
      const text = errorMessage(error, source);
      return typeof text === 'string' ? text : safe;
    } catch {
      // A throwing callback must not break the stream's end.
      return safe;
    }
  }
}

function messageOf(error: unknown): string {
  try {
    return errorMessageOf(error);
  } catch {
    return SAFE_ERROR_MESSAGE; // an error whose toString throws
  }
}
