// The public names of the vector layer (documents, embeddings, vector stores, filters),
// re-exported by the root entry point (lib/index.ts), which stays one import for users.
export type { Document, MetadataValue, ScoredDocument } from './document.js';
export type { EmbeddingModel, EmbeddingResponse } from './embedding-model.js';
export type { SearchRequest, SearchResult, VectorStore } from './vector-store.js';
export type { FilterExpression, FilterOperator } from './filter-expression.js';
export { parseFilterExpression, type FilterParseOptions } from './parse-filter-expression.js';
export { matchesFilter } from './matches-filter.js';
export {
  resolveSearchRequest,
  DEFAULT_TOP_K,
  type ResolvedSearchRequest,
} from './resolve-search-request.js';
export { embedChecked } from './embed-checked.js';
export { InMemoryVectorStore, type InMemoryVectorStoreOptions } from './in-memory-vector-store.js';
