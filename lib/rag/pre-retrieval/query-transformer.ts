import type { Observable } from 'rxjs';
import type { Query } from '../query.js';
import type { RagStageContext } from '../rag-stage-context.js';

/**
 * A stage that turns the query into a better one before retrieval (rewrite, compress the
 * conversation into a standalone question, translate). Cold: its work starts on
 * subscription and stops on unsubscribe. The first value is used; completing without one
 * leaves the query unchanged.
 *
 * @example
 * ```ts
 * import { of } from 'rxjs';
 * import type { QueryTransformer } from 'rx-advisors/rag';
 *
 * const trimmed: QueryTransformer = { transform: (query) => of({ ...query, text: query.text.trim() }) };
 * ```
 */
export interface QueryTransformer {
  /**
   * @param query The query so far.
   * @param stage Where model and embedding usage is reported.
   * @returns A cold Observable of the new query.
   */
  transform(query: Query, stage: RagStageContext): Observable<Query>;
}
