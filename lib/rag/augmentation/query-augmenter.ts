import type { Observable } from 'rxjs';
import type { ScoredDocument } from '../../vector/document.js';
import type { Query } from '../query.js';
import type { RagStageContext } from '../rag-stage-context.js';

/**
 * What an augmenter decided: a `prompt` that replaces the user's message before the model
 * call, or an `answer` given without calling the model (a refusal when nothing was found).
 *
 * @example
 * ```ts
 * import type { Augmentation } from 'rx-advisors/rag';
 * const ask: Augmentation = { prompt: 'Context: …\nQuestion: How long do refunds take?' };
 * const refuse: Augmentation = { answer: "I don't know." };
 * ```
 */
export type Augmentation = { readonly prompt: string } | { readonly answer: string };

/**
 * The last stage: puts the documents into the prompt (or decides to answer without the
 * model). Cold; the first value is used.
 *
 * @example
 * ```ts
 * import { of } from 'rxjs';
 * import type { QueryAugmenter } from 'rx-advisors/rag';
 *
 * const bullets: QueryAugmenter = {
 *   augment: (query, documents) =>
 *     of({ prompt: `${documents.map((d) => `- ${d.text}`).join('\n')}\n\n${query.text}` }),
 * };
 * ```
 */
export interface QueryAugmenter {
  /**
   * @param query The user's question (the original, not the transformed search query).
   * @param documents The joined documents, most relevant first (possibly none).
   * @param stage Where model and embedding usage is reported.
   * @returns A cold Observable of the augmentation.
   */
  augment(
    query: Query,
    documents: readonly ScoredDocument[],
    stage: RagStageContext,
  ): Observable<Augmentation>;
}
