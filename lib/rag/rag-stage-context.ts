import type { Usage } from '../core/usage.js';

/**
 * What every stage of a `RetrievalAugmentationAdvisor` receives besides its input, for one
 * call: where it reports what its own model calls and embeddings cost. A stage that calls a
 * chat model reports with `addUsage` (counted in the call's usage, like an evaluation
 * judge's); a retriever reports its query embeddings with `addEmbeddingUsage` (kept apart,
 * in the retrieval record, as `QuestionAnswerAdvisor` does).
 *
 * @example
 * ```ts
 * import { map, type Observable } from 'rxjs';
 * import type { Usage } from 'rx-advisors';
 * import type { QueryTransformer } from 'rx-advisors/rag';
 *
 * declare function summarize(text: string): Observable<{ text: string; usage: Usage }>;
 * const expensive: QueryTransformer = {
 *   transform: (query, stage) =>
 *     summarize(query.text).pipe(
 *       map(({ text, usage }) => {
 *         stage.addUsage(usage);
 *         return { ...query, text };
 *       }),
 *     ),
 * };
 * ```
 */
export interface RagStageContext {
  /** Adds a chat model call's usage to the call's total. */
  addUsage(usage: Partial<Usage>): void;
  /** Adds a query embedding's usage to the retrieval record. */
  addEmbeddingUsage(usage: Partial<Usage>): void;
}
