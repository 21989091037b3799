import { defer, of, type Observable } from 'rxjs';
import { Rules, validateOptions, withDefaults } from '../../core/validate-options.js';
import type { ScoredDocument } from '../../vector/document.js';
import type { DocumentJoiner, RetrievedDocuments } from './document-joiner.js';

/**
 * Options of {@link ConcatenationDocumentJoiner}.
 * @example
 * ```ts
 * import { ConcatenationDocumentJoiner, type ConcatenationDocumentJoinerOptions } from 'rx-advisors/rag';
 * const options: ConcatenationDocumentJoinerOptions = { maxDocuments: 8 };
 * new ConcatenationDocumentJoiner(options);
 * ```
 */
export interface ConcatenationDocumentJoinerOptions {
  /** The most documents passed on (the prompt's size); default 20. */
  maxDocuments?: number;
}

/** The default `maxDocuments` of the joiners. @internal */
export const DEFAULT_MAX_JOINED_DOCUMENTS = 20;

/** @internal */
export const JOINER_RULES = { maxDocuments: Rules.integer(1, 10_000) } as const;

/**
 * The default joiner: every result list concatenated, one copy per document id (the copy
 * with the highest score), ordered by score, highest first (equal scores keep their
 * first-seen order), at most `maxDocuments`. Scores from different retrievers must be
 * comparable for this order to mean much; when they are not, use
 * {@link ReciprocalRankFusionDocumentJoiner}.
 *
 * @example
 * ```ts partial
 * import { ConcatenationDocumentJoiner, RetrievalAugmentationAdvisor } from 'rx-advisors/rag';
 * new RetrievalAugmentationAdvisor({ documentRetrievers: [a, b], documentJoiner: new ConcatenationDocumentJoiner({ maxDocuments: 8 }) });
 * ```
 */
export class ConcatenationDocumentJoiner implements DocumentJoiner {
  private readonly maxDocuments: number;

  /** @param options `maxDocuments`. */
  constructor(options: ConcatenationDocumentJoinerOptions = {}) {
    this.maxDocuments = withDefaults(
      { maxDocuments: DEFAULT_MAX_JOINED_DOCUMENTS },
      validateOptions(options, JOINER_RULES),
    ).maxDocuments;
  }

  join(results: readonly RetrievedDocuments[]): Observable<readonly ScoredDocument[]> {
    return defer(() => {
      const best = new Map<string, ScoredDocument>();
      for (const { documents } of results) {
        for (const document of documents) {
          const seen = best.get(document.id);
          // Map keeps the first insertion's position; a better copy replaces the value only.
          if (seen === undefined || document.score > seen.score) best.set(document.id, document);
        }
      }
      const joined = [...best.values()].sort((a, b) => b.score - a.score);
      return of(joined.slice(0, this.maxDocuments));
    });
  }
}
