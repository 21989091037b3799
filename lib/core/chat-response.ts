import type { FinishReason } from './chat-chunk.js';
import type { AssistantMessage } from './message.js';
import type { LoopStopReason } from './loop-stop-reason.js';
import type { Source } from './source.js';
import type { Usage } from './usage.js';

/**
 * What a whole stream aggregates to.
 *
 * @example
 * ```ts
 * import type { ChatResponse } from 'rx-advisors';
 *
 * client.prompt('hi').call().chatResponse().subscribe((response: ChatResponse) => {
 *   console.log(response.text, response.usage.totalTokens, response.metadata.rounds);
 * });
 * ```
 */
export interface ChatResponse {
  /** The assistant message: text, tool calls (when the caller drives the loop), reasoning blocks. */
  message: AssistantMessage;
  /** Equal to `message.content`. */
  text: string;
  /** All reasoning text of the stream, when there was any. */
  reasoning?: string;
  /** Accumulated over every model call behind this response. */
  usage: Usage;
  finishReason: FinishReason;
  metadata: {
    id?: string;
    model?: string;
    /** The model calls made. */
    rounds: number;
    /**
     * The `source` chunks of the stream (retrieved documents, cited pages), in first-seen
     * order, one per id (a later one with the same id replaces it); absent when there were none.
     */
    sources?: Source[];
    /** Why the tool loop stopped early (a `stopWhen` condition, a budget); absent otherwise. */
    stopReason?: LoopStopReason;
  };
}
