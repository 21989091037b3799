import type { Observable } from 'rxjs';
import type { ScoredDocument } from '../../vector/document.js';
import type { Query } from '../query.js';
import type { RagStageContext } from '../rag-stage-context.js';

/**
 * A stage that reworks the joined documents before they go into the prompt: re-rank,
 * filter, trim, compress (Spring AI's `DocumentPostProcessor`). A
 * `RetrievalAugmentationAdvisor` runs its `documentPostProcessors` in order, after the
 * joiner and before the record and the augmenter, each on the previous one's output. Cold
 * and cancellable (an unsubscribe during a processor's model call aborts it); the first
 * value is used; completing without one keeps the documents as they were.
 *
 * @example
 * ```ts
 * import { of } from 'rxjs';
 * import type { DocumentPostProcessor } from 'rx-advisors/rag';
 *
 * const withoutDrafts: DocumentPostProcessor = {
 *   process: (_query, documents) => of(documents.filter((d) => d.metadata['draft'] !== true)),
 * };
 * ```
 */
export interface DocumentPostProcessor {
  /**
   * @param query The search query (after the query transformers, before expansion), with
   *   the conversation and the call's context.
   * @param documents The documents so far, most relevant first.
   * @param stage Where model and embedding usage is reported.
   * @returns A cold Observable of the documents to pass on, most relevant first.
   */
  process(
    query: Query,
    documents: readonly ScoredDocument[],
    stage: RagStageContext,
  ): Observable<readonly ScoredDocument[]>;
}
