import type { Observable } from 'rxjs';
import type { ChatChunk } from './chat-chunk.js';
import type { ChatRequest } from './chat-request.js';

/**
 * A chat model: one cold Observable of chunks per call. Nothing happens until
 * subscription; each subscription is one model call; unsubscribing aborts it. A model
 * never runs tools: it reports tool calls as chunks, and the tool loop advisor runs them.
 *
 * @example
 * ```ts
 * import { of } from 'rxjs';
 * import type { ChatChunk, ChatModel } from 'rx-advisors';
 *
 * const echo: ChatModel = {
 *   provider: 'echo',
 *   stream: (request) =>
 *     of<ChatChunk[]>(
 *       { type: 'text-delta', text: request.lastUserText ?? '' },
 *       { type: 'finish', reason: 'stop' },
 *     ),
 * };
 * ```
 */
export interface ChatModel {
  /** The provider's name (`'openai'`, `'anthropic'`, `'mock'`…). */
  readonly provider: string;
  /**
   * The model name a call uses when its request's `options.model` names none (what an
   * adapter was constructed with), when the model knows it. Telemetry reports it as the
   * requested model.
   */
  readonly defaultModel?: string | undefined;
  /**
   * Streams one model call.
   * @param request The request to send.
   * @returns A cold Observable whose last chunk is a `finish` chunk.
   */
  stream(request: ChatRequest): Observable<ChatChunk>;
}
