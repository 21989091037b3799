import type { Observable } from 'rxjs';
import type { Usage } from '../core/usage.js';
import type { Document, ScoredDocument } from './document.js';
import type { FilterExpression } from './filter-expression.js';

/**
 * One similarity search.
 *
 * @example
 * ```ts
 * import type { SearchRequest } from 'rx-advisors/rag';
 * const request: SearchRequest = { query: 'refunds', topK: 3, similarityThreshold: 0.5, filter: "topic == 'billing'" };
 * ```
 */
export interface SearchRequest {
  /** The text to search for; it is embedded with the store's embedding model. */
  query: string;
  /** How many documents at most; default 4 (Spring AI's default). */
  topK?: number;
  /** Keep only documents at least this similar (cosine, -1 to 1); default: keep all. */
  similarityThreshold?: number;
  /** A metadata filter: the text form (see docs/rag.md) or a parsed expression. */
  filter?: string | FilterExpression;
}

/**
 * What a similarity search found: the documents, most similar first (equal
 * scores by id), and the tokens the
 * query's embedding cost.
 *
 * @example
 * ```ts
 * import type { SearchResult } from 'rx-advisors/rag';
 * const none: SearchResult = { documents: [], usage: { inputTokens: 2, outputTokens: undefined, totalTokens: 2 } };
 * ```
 */
export interface SearchResult {
  readonly documents: readonly ScoredDocument[];
  readonly usage: Usage;
}

/**
 * A store of embedded documents searchable by similarity. Every method is cold and
 * cancellable: unsubscribing aborts the embedding call behind it. A failed `add` stores
 * nothing (all documents are embedded and checked before any is written).
 *
 * The contract suite `spec/vector/support/vector-store-contract.ts` pins the semantics
 * every implementation shares (in memory, SQLite, PostgreSQL).
 *
 * @example
 * ```ts
 * import { lastValueFrom } from 'rxjs';
 * import type { VectorStore } from 'rx-advisors/rag';
 *
 * async function top(store: VectorStore) {
 *   const { documents } = await lastValueFrom(store.similaritySearch({ query: 'refunds', topK: 2 }));
 *   return documents.map((d) => d.id);
 * }
 * ```
 */
export interface VectorStore {
  /** A readable name, for logs. */
  readonly name: string;
  /**
   * Embeds and stores documents; a document whose id is already stored is replaced.
   * @param documents The documents.
   * @returns One value, the number of documents written; then completes.
   */
  add(documents: readonly Document[]): Observable<number>;
  /**
   * Deletes documents by id; unknown ids are ignored.
   * @param ids The ids.
   * @returns One value, the number of documents deleted; then completes.
   */
  delete(ids: readonly string[]): Observable<number>;
  /**
   * Finds the documents most similar to `request.query` that pass the filter.
   * @param request The query, top-k, threshold and filter.
   * @returns One {@link SearchResult}; then completes.
   */
  similaritySearch(request: SearchRequest): Observable<SearchResult>;
}
