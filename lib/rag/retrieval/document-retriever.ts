import type { Observable } from 'rxjs';
import type { ScoredDocument } from '../../vector/document.js';
import type { Query } from '../query.js';
import type { RagStageContext } from '../rag-stage-context.js';

/**
 * A stage that finds the documents for one query (a vector store, a search engine, a
 * web search). Cold: unsubscribing aborts the search. The first value is used; completing
 * without one means no documents.
 *
 * @example
 * ```ts
 * import { of } from 'rxjs';
 * import type { DocumentRetriever } from 'rx-advisors/rag';
 *
 * const faq: DocumentRetriever = {
 *   retrieve: (query) =>
 *     of(query.text.includes('refund') ? [{ id: 'faq-1', text: 'Refunds take 5 days.', metadata: {}, score: 1 }] : []),
 * };
 * ```
 */
export interface DocumentRetriever {
  /**
   * @param query The query to retrieve for.
   * @param stage Where model and embedding usage is reported.
   * @returns A cold Observable of the documents, most relevant first.
   */
  retrieve(query: Query, stage: RagStageContext): Observable<readonly ScoredDocument[]>;
}
