import type { Observable } from 'rxjs';
import type { ScoredDocument } from '../../vector/document.js';
import type { Query } from '../query.js';
import type { RagStageContext } from '../rag-stage-context.js';

/**
 * The documents one retriever found for one query: what a {@link DocumentJoiner} merges.
 *
 * @example
 * ```ts
 * import type { RetrievedDocuments } from 'rx-advisors/rag';
 * const found: RetrievedDocuments = {
 *   query: { text: 'refunds', history: [], context: new Map() },
 *   retriever: 0,
 *   documents: [{ id: 'faq-1', text: 'Refunds take 5 days.', metadata: {}, score: 0.9 }],
 * };
 * ```
 */
export interface RetrievedDocuments {
  readonly query: Query;
  /** The retriever's position in `documentRetrievers`. */
  readonly retriever: number;
  /** Most relevant first. */
  readonly documents: readonly ScoredDocument[];
}

/**
 * A stage that merges the documents every retriever found for every query into the one
 * list the augmenter puts into the prompt (deduplicate, rank fusion). Cold; the first value
 * is used.
 *
 * @example
 * ```ts
 * import { of } from 'rxjs';
 * import type { DocumentJoiner } from 'rx-advisors/rag';
 *
 * const firstListOnly: DocumentJoiner = { join: (results) => of(results[0]?.documents ?? []) };
 * ```
 */
export interface DocumentJoiner {
  /**
   * @param results Every (query, retriever) result, in query order, then retriever order.
   * @param stage Where model and embedding usage is reported.
   * @returns A cold Observable of the merged documents, most relevant first.
   */
  join(
    results: readonly RetrievedDocuments[],
    stage: RagStageContext,
  ): Observable<readonly ScoredDocument[]>;
}
