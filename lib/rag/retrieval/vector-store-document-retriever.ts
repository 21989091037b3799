import { defer, map, type Observable } from 'rxjs';
import { validateOptions, withDefaults, type OptionRules } from '../../core/validate-options.js';
import type { ScoredDocument } from '../../vector/document.js';
import type { FilterExpression } from '../../vector/filter-expression.js';
import { parseFilterExpression } from '../../vector/parse-filter-expression.js';
import type { SearchRequest, VectorStore } from '../../vector/vector-store.js';
import {
  SEARCH_REQUEST_RULE,
  SEARCHABLE_VECTOR_STORE_RULE,
} from '../../vector/vector-store-rules.js';
import type { DocumentRetriever } from './document-retriever.js';
import type { Query } from '../query.js';
import type { RagStageContext } from '../rag-stage-context.js';

/**
 * Options of {@link VectorStoreDocumentRetriever}.
 * @example
 * ```ts partial
 * import type { VectorStoreDocumentRetrieverOptions } from 'rx-advisors/rag';
 * const options: VectorStoreDocumentRetrieverOptions = {
 *   vectorStore: store,
 *   searchRequest: { topK: 5, similarityThreshold: 0.4, filter: "topic == 'billing'" },
 * };
 * ```
 */
export interface VectorStoreDocumentRetrieverOptions {
  /** Where the documents are searched. */
  vectorStore: VectorStore;
  /** topK, similarityThreshold and filter of every search (the query is the stage's query). */
  searchRequest?: Omit<SearchRequest, 'query'>;
}

const RETRIEVER_RULES: OptionRules<VectorStoreDocumentRetrieverOptions> = {
  vectorStore: SEARCHABLE_VECTOR_STORE_RULE,
  searchRequest: SEARCH_REQUEST_RULE,
};

/**
 * A {@link DocumentRetriever} over a {@link VectorStore}: one similarity search per query
 * (cold; unsubscribing aborts the query's embedding). The query embedding's usage goes to
 * the retrieval record. A per-call filter comes from
 * `advisorParams({ [VectorStoreDocumentRetriever.FILTER_EXPRESSION]: "…" })` and replaces the
 * configured one; a configured filter text is parsed here, so a bad one fails at
 * construction with a `FilterExpressionError`.
 *
 * @example
 * ```ts partial
 * import { VectorStoreDocumentRetriever } from 'rx-advisors/rag';
 * const retriever = new VectorStoreDocumentRetriever({ vectorStore: store, searchRequest: { topK: 3 } });
 * ```
 */
export class VectorStoreDocumentRetriever implements DocumentRetriever {
  /** The advisor param holding a per-call filter (text or parsed); Spring AI's name. */
  static readonly FILTER_EXPRESSION = 'vector_store_filter_expression';
  private readonly vectorStore: VectorStore;
  private readonly searchRequest: Omit<SearchRequest, 'query'>;

  /** @param options The store and the search settings. */
  constructor(options: VectorStoreDocumentRetrieverOptions) {
    const resolved = withDefaults(
      { searchRequest: {} },
      validateOptions(options ?? ({} as VectorStoreDocumentRetrieverOptions), RETRIEVER_RULES),
    );
    const { filter } = resolved.searchRequest;
    this.vectorStore = resolved.vectorStore;
    this.searchRequest =
      typeof filter === 'string'
        ? { ...resolved.searchRequest, filter: parseFilterExpression(filter) }
        : { ...resolved.searchRequest };
  }

  retrieve(query: Query, stage: RagStageContext): Observable<readonly ScoredDocument[]> {
    return defer(() => {
      const perCall = query.context.get(VectorStoreDocumentRetriever.FILTER_EXPRESSION) as
        string | FilterExpression | undefined;
      const search: SearchRequest = { ...this.searchRequest, query: query.text };
      if (perCall !== undefined) search.filter = perCall;
      return this.vectorStore.similaritySearch(search).pipe(
        map(({ documents, usage }) => {
          stage.addEmbeddingUsage(usage);
          return documents;
        }),
      );
    });
  }
}
