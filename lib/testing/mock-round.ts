import type { FinishReason } from '../core/chat-chunk.js';
import type { Usage } from '../core/usage.js';

/** One scripted tool call of a {@link MockRound}. */
export interface MockToolCall {
  /** Defaults to `call_<round>_<index>`. */
  id?: string;
  name: string;
  /** An object (sent as its JSON text) or the raw arguments text (malformed JSON is allowed). */
  arguments?: Record<string, unknown> | string;
}

/**
 * One scripted model call of a `MockChatModel`.
 *
 * @example
 * ```ts
 * import type { MockRound } from 'rx-advisors/testing';
 * const round: MockRound = { text: 'It is noon in Paris.', usage: { inputTokens: 20, outputTokens: 7 } };
 * ```
 */
export interface MockRound {
  /** The answer text: a string is streamed word by word, an array as exactly these deltas. */
  text?: string | readonly string[];
  /** Reasoning text, streamed before the answer, like `text`. */
  reasoning?: string | readonly string[];
  /** Tool calls, streamed as `tool-call-delta` fragments then complete `tool-call` chunks. */
  toolCalls?: readonly MockToolCall[];
  /** The usage to report; `totalTokens` defaults to input + output when both are given. */
  usage?: Partial<Usage>;
  /** Defaults to `tool-calls` when there are tool calls, else `stop`. */
  finishReason?: FinishReason;
  /**
   * Fail after the chunks above instead of finishing: an Error is emitted as is, a string
   * becomes a non-retryable `ProviderError` from provider `mock`.
   */
  error?: Error | string;
  /** Milliseconds (RxJS time, so virtual in marble tests) before the first chunk. */
  delay?: number;
  /** Milliseconds (RxJS time) between chunks. */
  interval?: number;
  /** The response id in the metadata chunk; defaults to `mock-<round>`. */
  id?: string;
}
