import type { Observable } from 'rxjs';
import type { Usage } from '../core/usage.js';

/**
 * What one {@link EmbeddingModel.embed} call returns: one vector per input text, in input
 * order, and the tokens the provider counted (`undefined` where it reported none).
 *
 * @example
 * ```ts
 * import type { EmbeddingResponse } from 'rx-advisors/rag';
 * const response: EmbeddingResponse = {
 *   embeddings: [[0.1, 0.2]],
 *   usage: { inputTokens: 3, outputTokens: undefined, totalTokens: 3 },
 * };
 * ```
 */
export interface EmbeddingResponse {
  readonly embeddings: readonly (readonly number[])[];
  readonly usage: Usage;
  /** The model that answered, when the provider says. */
  readonly model?: string | undefined;
}

/**
 * Turns texts into vectors. Cold, like `ChatModel`: nothing happens until subscription,
 * each subscription is one (possibly batched) call, and unsubscribing aborts it. The
 * Observable emits one {@link EmbeddingResponse} and completes.
 *
 * @example
 * ```ts
 * import { map, of } from 'rxjs';
 * import type { EmbeddingModel } from 'rx-advisors/rag';
 *
 * const lengths: EmbeddingModel = {
 *   provider: 'toy',
 *   embed: (texts) =>
 *     of({
 *       embeddings: texts.map((t) => [t.length, 1]),
 *       usage: { inputTokens: undefined, outputTokens: undefined, totalTokens: undefined },
 *     }),
 * };
 * ```
 */
export interface EmbeddingModel {
  /** The provider's name, for errors and logs. */
  readonly provider: string;
  /**
   * Embeds texts.
   * @param texts The texts, at least one.
   * @returns A cold Observable of one response with `texts.length` vectors.
   */
  embed(texts: readonly string[]): Observable<EmbeddingResponse>;
}
