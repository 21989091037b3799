import { defer, of, type Observable } from 'rxjs';
import { Rules, validateOptions, withDefaults } from '../../core/validate-options.js';
import type { ScoredDocument } from '../../vector/document.js';
import { DEFAULT_MAX_JOINED_DOCUMENTS, JOINER_RULES } from './concatenation-document-joiner.js';
import type { DocumentJoiner, RetrievedDocuments } from './document-joiner.js';

/**
 * Options of {@link ReciprocalRankFusionDocumentJoiner}.
 * @example
 * ```ts
 * import { ReciprocalRankFusionDocumentJoiner, type ReciprocalRankFusionDocumentJoinerOptions } from 'rx-advisors/rag';
 * const options: ReciprocalRankFusionDocumentJoinerOptions = { k: 60, maxDocuments: 8 };
 * new ReciprocalRankFusionDocumentJoiner(options);
 * ```
 */
export interface ReciprocalRankFusionDocumentJoinerOptions {
  /** The rank constant: larger values flatten the advantage of top ranks; default 60. */
  k?: number;
  /** The most documents passed on; default 20. */
  maxDocuments?: number;
}

/**
 * Reciprocal rank fusion: each document gets `Σ 1 / (k + rank)` over every result list it
 * appears in (rank counting from 1), and the documents are ordered by that sum, highest
 * first (equal sums by id), at most `maxDocuments`. It uses ranks only, so it merges
 * retrievers whose scores are not comparable (a vector store and a keyword search), and a
 * document several queries found rises. Each document keeps its best similarity as `score`.
 *
 * @example
 * ```ts partial
 * import { MultiQueryExpander, ReciprocalRankFusionDocumentJoiner, RetrievalAugmentationAdvisor } from 'rx-advisors/rag';
 * new RetrievalAugmentationAdvisor({
 *   queryExpander: new MultiQueryExpander({ chatClient }),
 *   documentRetrievers: [retriever],
 *   documentJoiner: new ReciprocalRankFusionDocumentJoiner(),
 * });
 * ```
 */
export class ReciprocalRankFusionDocumentJoiner implements DocumentJoiner {
  private readonly k: number;
  private readonly maxDocuments: number;

  /** @param options `k` and `maxDocuments`. */
  constructor(options: ReciprocalRankFusionDocumentJoinerOptions = {}) {
    const resolved = withDefaults(
      { k: 60, maxDocuments: DEFAULT_MAX_JOINED_DOCUMENTS },
      validateOptions(options, { ...JOINER_RULES, k: Rules.integer(1, 10_000) }),
    );
    this.k = resolved.k;
    this.maxDocuments = resolved.maxDocuments;
  }

  join(results: readonly RetrievedDocuments[]): Observable<readonly ScoredDocument[]> {
    return defer(() => {
      const fused = new Map<string, { document: ScoredDocument; sum: number }>();
      for (const { documents } of results) {
        const ranked = new Set<string>();
        documents.forEach((document, index) => {
          if (ranked.has(document.id)) return; // one list counts a document once
          ranked.add(document.id);
          const share = 1 / (this.k + index + 1);
          const entry = fused.get(document.id);
          if (entry === undefined) fused.set(document.id, { document, sum: share });
          else {
            entry.sum += share;
            if (document.score > entry.document.score) entry.document = document;
          }
        });
      }
      const ordered = [...fused.values()].sort(
        (a, b) => b.sum - a.sum || (a.document.id < b.document.id ? -1 : 1),
      );
      return of(ordered.slice(0, this.maxDocuments).map((entry) => entry.document));
    });
  }
}
