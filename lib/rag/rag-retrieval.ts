import type { Usage } from '../core/usage.js';
import type { Retrieval } from './question-answer-advisor.js';

/**
 * What `RetrievalAugmentationAdvisor` retrieved for one call: a `Retrieval` (the
 * question, the joined documents, the query embeddings' usage) plus the queries searched
 * and what the stages' own model calls cost.
 *
 * @example
 * ```ts
 * import type { RagRetrieval } from 'rx-advisors/rag';
 * const onRetrieved = (r: RagRetrieval) => console.log(r.queries, r.documents.map((d) => d.id));
 * ```
 */
export interface RagRetrieval extends Retrieval {
  /** The texts searched for, after transformation and expansion, in order. */
  readonly queries: readonly string[];
  /** The stages' chat model usage (also part of the call's usage). */
  readonly stageUsage: Usage;
}
