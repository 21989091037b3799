// rx-advisors/rag: retrieval-augmented generation. Explicit re-exports, grouped by role.

// Documents, embeddings, vector stores and their filters
export type { Document, MetadataValue, ScoredDocument } from '../vector/document.js';
export type { EmbeddingModel, EmbeddingResponse } from '../vector/embedding-model.js';
export type { SearchRequest, SearchResult, VectorStore } from '../vector/vector-store.js';
export type { FilterExpression, FilterOperator } from '../vector/filter-expression.js';
export {
  parseFilterExpression,
  type FilterParseOptions,
} from '../vector/parse-filter-expression.js';
export {
  InMemoryVectorStore,
  type InMemoryVectorStoreOptions,
} from '../vector/in-memory-vector-store.js';

// Writing a vector store: what InMemoryVectorStore and SqliteVectorStore are built from
export { matchesFilter } from '../vector/matches-filter.js';
export {
  resolveSearchRequest,
  DEFAULT_TOP_K,
  type ResolvedSearchRequest,
} from '../vector/resolve-search-request.js';
export { embedChecked } from '../vector/embed-checked.js';

// QuestionAnswerAdvisor: retrieve, then answer with the documents
export {
  QuestionAnswerAdvisor,
  type QuestionAnswerAdvisorOptions,
  type Retrieval,
} from './question-answer-advisor.js';
export { documentSource } from './document-source.js';
export type { EmitSources } from './source-chunks.js';

// Modular RAG: RetrievalAugmentationAdvisor and its stages, in pipeline order
export {
  RetrievalAugmentationAdvisor,
  type RagRetrieval,
  type RetrievalAugmentationAdvisorOptions,
} from './retrieval-augmentation-advisor.js';
export type { Query } from './query.js';
export type { RagStageContext } from './rag-stage-context.js';
export type { QueryTransformer } from './pre-retrieval/query-transformer.js';
export {
  RewriteQueryTransformer,
  type RewriteQueryTransformerOptions,
} from './pre-retrieval/rewrite-query-transformer.js';
export {
  CompressionQueryTransformer,
  type CompressionQueryTransformerOptions,
} from './pre-retrieval/compression-query-transformer.js';
export {
  TranslationQueryTransformer,
  type TranslationQueryTransformerOptions,
} from './pre-retrieval/translation-query-transformer.js';
export type { QueryExpander } from './pre-retrieval/query-expander.js';
export {
  MultiQueryExpander,
  type MultiQueryExpanderOptions,
} from './pre-retrieval/multi-query-expander.js';
export type { DocumentRetriever } from './retrieval/document-retriever.js';
export {
  VectorStoreDocumentRetriever,
  type VectorStoreDocumentRetrieverOptions,
} from './retrieval/vector-store-document-retriever.js';
export type { DocumentJoiner, RetrievedDocuments } from './retrieval/document-joiner.js';
export {
  ConcatenationDocumentJoiner,
  type ConcatenationDocumentJoinerOptions,
} from './retrieval/concatenation-document-joiner.js';
export {
  ReciprocalRankFusionDocumentJoiner,
  type ReciprocalRankFusionDocumentJoinerOptions,
} from './retrieval/reciprocal-rank-fusion-document-joiner.js';
export type { DocumentPostProcessor } from './post-retrieval/document-post-processor.js';
export {
  TopKDocumentPostProcessor,
  type TopKDocumentPostProcessorOptions,
} from './post-retrieval/top-k-document-post-processor.js';
export {
  ChatClientDocumentReranker,
  type ChatClientDocumentRerankerOptions,
} from './post-retrieval/chat-client-document-reranker.js';
export type { Augmentation, QueryAugmenter } from './augmentation/query-augmenter.js';
export {
  ContextualQueryAugmenter,
  type ContextualQueryAugmenterOptions,
} from './augmentation/contextual-query-augmenter.js';

// Long-term chat memory by similarity (lib/memory/vector/)
export {
  VectorStoreChatMemoryAdvisor,
  type VectorStoreChatMemoryAdvisorOptions,
} from '../memory/vector/vector-store-chat-memory-advisor.js';

// Errors
export { EmbeddingError } from '../errors/embedding-error.js';
export { EmptyQuestionError } from '../errors/empty-question-error.js';
export { FilterExpressionError } from '../errors/filter-expression-error.js';
export { VectorDimensionError } from '../errors/vector-dimension-error.js';
export { VectorStoreError, type VectorStoreOperation } from '../errors/vector-store-error.js';
