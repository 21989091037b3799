import type { Observable } from 'rxjs';
import type { Query } from '../query.js';
import type { RagStageContext } from '../rag-stage-context.js';

/**
 * A stage that turns one query into several (multi-query): each is retrieved for, and the
 * results are joined. Cold and cancellable; the first value is used; completing without
 * one (or with an empty list) keeps the query alone.
 *
 * @example
 * ```ts
 * import { of } from 'rxjs';
 * import type { QueryExpander } from 'rx-advisors/rag';
 *
 * const withSynonym: QueryExpander = {
 *   expand: (query) => of([query, { ...query, text: query.text.replace('refund', 'reimbursement') }]),
 * };
 * ```
 */
export interface QueryExpander {
  /**
   * @param query The (transformed) query.
   * @param stage Where model and embedding usage is reported.
   * @returns A cold Observable of the queries to retrieve for.
   */
  expand(query: Query, stage: RagStageContext): Observable<readonly Query[]>;
}
