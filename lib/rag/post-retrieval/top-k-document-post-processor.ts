import { defer, of, type Observable } from 'rxjs';
import {
  Rules,
  validateOptions,
  withDefaults,
  type OptionRules,
} from '../../core/validate-options.js';
import type { ScoredDocument } from '../../vector/document.js';
import type { DocumentPostProcessor } from './document-post-processor.js';
import type { Query } from '../query.js';

/**
 * Options of {@link TopKDocumentPostProcessor}.
 * @example
 * ```ts
 * import { TopKDocumentPostProcessor, type TopKDocumentPostProcessorOptions } from 'rx-advisors/rag';
 * const options: TopKDocumentPostProcessorOptions = { topK: 3, similarityThreshold: 0.5 };
 * new TopKDocumentPostProcessor(options);
 * ```
 */
export interface TopKDocumentPostProcessorOptions {
  /** The most documents passed on: the first ones, in the order they come; default 4. */
  topK?: number;
  /** Drops documents whose `score` is below it (-1 to 1); default none. */
  similarityThreshold?: number;
}

const TOP_K_RULES: OptionRules<TopKDocumentPostProcessorOptions> = {
  topK: Rules.integer(1, 10_000),
  similarityThreshold: Rules.number(-1, 1),
};

/**
 * Keeps the best documents: those scoring at least `similarityThreshold`, then the first
 * `topK` of them. "Best" is the order the documents arrive in (most relevant first, as
 * every stage passes them), not a re-sort by score: placed after a re-ranker it keeps the
 * re-ranker's top documents, after a rank-fusion joiner the fused top. No model call.
 *
 * @example
 * ```ts partial
 * import { ChatClientDocumentReranker, RetrievalAugmentationAdvisor, TopKDocumentPostProcessor } from 'rx-advisors/rag';
 * new RetrievalAugmentationAdvisor({
 *   documentRetrievers: [retriever],
 *   documentPostProcessors: [
 *     new ChatClientDocumentReranker({ chatClient }),
 *     new TopKDocumentPostProcessor({ topK: 3, similarityThreshold: 0.3 }),
 *   ],
 * });
 * ```
 */
export class TopKDocumentPostProcessor implements DocumentPostProcessor {
  private readonly topK: number;
  private readonly similarityThreshold: number | undefined;

  /** @param options `topK` and `similarityThreshold`. */
  constructor(options: TopKDocumentPostProcessorOptions = {}) {
    const resolved = withDefaults({ topK: 4 }, validateOptions(options, TOP_K_RULES));
    this.topK = resolved.topK;
    this.similarityThreshold = resolved.similarityThreshold;
  }

  process(
    _query: Query,
    documents: readonly ScoredDocument[],
  ): Observable<readonly ScoredDocument[]> {
    return defer(() => {
      const threshold = this.similarityThreshold;
      const kept =
        threshold === undefined ? documents : documents.filter((d) => d.score >= threshold);
      return of(kept.slice(0, this.topK));
    });
  }
}
