// The names the root entry point exported before 0.2.0 that moved to a subpath or are
// internal. They keep working for one release: each is marked @deprecated with its new home
// (editors strike it through, and @typescript-eslint/no-deprecated reports it), and the next
// release removes this file. CHANGELOG.md, "Migration", lists them.
// spec/architecture/public-surface.spec.ts checks that every name here is deprecated and is
// the same value as the one its new entry point exports.

// The advisor contract: rx-advisors/advisor-api
export {
  /** @deprecated Import it from 'rx-advisors/advisor-api' (CHANGELOG.md, 0.2.0). */
  createAdvisorChain,
  /** @deprecated Import it from 'rx-advisors/advisor-api' (CHANGELOG.md, 0.2.0). */
  sortAdvisors,
  /** @deprecated Import it from 'rx-advisors/advisor-api' (CHANGELOG.md, 0.2.0). */
  ContextKeys,
  /** @deprecated Import it from 'rx-advisors/advisor-api' (CHANGELOG.md, 0.2.0). */
  ToolLoopTranscript,
  /** @deprecated Import it from 'rx-advisors/advisor-api' (CHANGELOG.md, 0.2.0). */
  isConversationHistoryAware,
  /** @deprecated Import it from 'rx-advisors/advisor-api' (CHANGELOG.md, 0.2.0). */
  isToolContributor,
  /** @deprecated Import it from 'rx-advisors/advisor-api' (CHANGELOG.md, 0.2.0). */
  isToolLoop,
  /** @deprecated Import it from 'rx-advisors/advisor-api' (CHANGELOG.md, 0.2.0). */
  recursiveAdvisor,
  /** @deprecated Import it from 'rx-advisors/advisor-api' (CHANGELOG.md, 0.2.0). */
  emptyUsage,
  /** @deprecated Import it from 'rx-advisors/advisor-api' (CHANGELOG.md, 0.2.0). */
  type AdvisorChain,
  /** @deprecated Import it from 'rx-advisors/advisor-api' (CHANGELOG.md, 0.2.0). */
  type CreateAdvisorChainOptions,
  /** @deprecated Import it from 'rx-advisors/advisor-api' (CHANGELOG.md, 0.2.0). */
  type TranscriptMark,
  /** @deprecated Import it from 'rx-advisors/advisor-api' (CHANGELOG.md, 0.2.0). */
  type ConversationHistoryAware,
  /** @deprecated Import it from 'rx-advisors/advisor-api' (CHANGELOG.md, 0.2.0). */
  type ToolContributor,
  /** @deprecated Import it from 'rx-advisors/advisor-api' (CHANGELOG.md, 0.2.0). */
  type ToolLoopRole,
  /** @deprecated Import it from 'rx-advisors/advisor-api' (CHANGELOG.md, 0.2.0). */
  type RecursionDecision,
  /** @deprecated Import it from 'rx-advisors/advisor-api' (CHANGELOG.md, 0.2.0). */
  type RecursionState,
  /** @deprecated Import it from 'rx-advisors/advisor-api' (CHANGELOG.md, 0.2.0). */
  type RecursionStep,
  /** @deprecated Import it from 'rx-advisors/advisor-api' (CHANGELOG.md, 0.2.0). */
  type RecursiveAdvisorOptions,
} from './advisor-api/index.js';

// Retrieval: rx-advisors/rag
export {
  /** @deprecated Import it from 'rx-advisors/rag' (CHANGELOG.md, 0.2.0). */
  InMemoryVectorStore,
  /** @deprecated Import it from 'rx-advisors/rag' (CHANGELOG.md, 0.2.0). */
  parseFilterExpression,
  /** @deprecated Import it from 'rx-advisors/rag' (CHANGELOG.md, 0.2.0). */
  matchesFilter,
  /** @deprecated Import it from 'rx-advisors/rag' (CHANGELOG.md, 0.2.0). */
  resolveSearchRequest,
  /** @deprecated Import it from 'rx-advisors/rag' (CHANGELOG.md, 0.2.0). */
  DEFAULT_TOP_K,
  /** @deprecated Import it from 'rx-advisors/rag' (CHANGELOG.md, 0.2.0). */
  embedChecked,
  /** @deprecated Import it from 'rx-advisors/rag' (CHANGELOG.md, 0.2.0). */
  QuestionAnswerAdvisor,
  /** @deprecated Import it from 'rx-advisors/rag' (CHANGELOG.md, 0.2.0). */
  documentSource,
  /** @deprecated Import it from 'rx-advisors/rag' (CHANGELOG.md, 0.2.0). */
  RetrievalAugmentationAdvisor,
  /** @deprecated Import it from 'rx-advisors/rag' (CHANGELOG.md, 0.2.0). */
  RewriteQueryTransformer,
  /** @deprecated Import it from 'rx-advisors/rag' (CHANGELOG.md, 0.2.0). */
  CompressionQueryTransformer,
  /** @deprecated Import it from 'rx-advisors/rag' (CHANGELOG.md, 0.2.0). */
  TranslationQueryTransformer,
  /** @deprecated Import it from 'rx-advisors/rag' (CHANGELOG.md, 0.2.0). */
  MultiQueryExpander,
  /** @deprecated Import it from 'rx-advisors/rag' (CHANGELOG.md, 0.2.0). */
  VectorStoreDocumentRetriever,
  /** @deprecated Import it from 'rx-advisors/rag' (CHANGELOG.md, 0.2.0). */
  ConcatenationDocumentJoiner,
  /** @deprecated Import it from 'rx-advisors/rag' (CHANGELOG.md, 0.2.0). */
  ReciprocalRankFusionDocumentJoiner,
  /** @deprecated Import it from 'rx-advisors/rag' (CHANGELOG.md, 0.2.0). */
  TopKDocumentPostProcessor,
  /** @deprecated Import it from 'rx-advisors/rag' (CHANGELOG.md, 0.2.0). */
  ChatClientDocumentReranker,
  /** @deprecated Import it from 'rx-advisors/rag' (CHANGELOG.md, 0.2.0). */
  ContextualQueryAugmenter,
  /** @deprecated Import it from 'rx-advisors/rag' (CHANGELOG.md, 0.2.0). */
  VectorStoreChatMemoryAdvisor,
  /** @deprecated Import it from 'rx-advisors/rag' (CHANGELOG.md, 0.2.0). */
  EmbeddingError,
  /** @deprecated Import it from 'rx-advisors/rag' (CHANGELOG.md, 0.2.0). */
  EmptyQuestionError,
  /** @deprecated Import it from 'rx-advisors/rag' (CHANGELOG.md, 0.2.0). */
  FilterExpressionError,
  /** @deprecated Import it from 'rx-advisors/rag' (CHANGELOG.md, 0.2.0). */
  VectorDimensionError,
  /** @deprecated Import it from 'rx-advisors/rag' (CHANGELOG.md, 0.2.0). */
  VectorStoreError,
  /** @deprecated Import it from 'rx-advisors/rag' (CHANGELOG.md, 0.2.0). */
  type Document,
  /** @deprecated Import it from 'rx-advisors/rag' (CHANGELOG.md, 0.2.0). */
  type MetadataValue,
  /** @deprecated Import it from 'rx-advisors/rag' (CHANGELOG.md, 0.2.0). */
  type ScoredDocument,
  /** @deprecated Import it from 'rx-advisors/rag' (CHANGELOG.md, 0.2.0). */
  type EmbeddingModel,
  /** @deprecated Import it from 'rx-advisors/rag' (CHANGELOG.md, 0.2.0). */
  type EmbeddingResponse,
  /** @deprecated Import it from 'rx-advisors/rag' (CHANGELOG.md, 0.2.0). */
  type SearchRequest,
  /** @deprecated Import it from 'rx-advisors/rag' (CHANGELOG.md, 0.2.0). */
  type SearchResult,
  /** @deprecated Import it from 'rx-advisors/rag' (CHANGELOG.md, 0.2.0). */
  type VectorStore,
  /** @deprecated Import it from 'rx-advisors/rag' (CHANGELOG.md, 0.2.0). */
  type FilterExpression,
  /** @deprecated Import it from 'rx-advisors/rag' (CHANGELOG.md, 0.2.0). */
  type FilterOperator,
  /** @deprecated Import it from 'rx-advisors/rag' (CHANGELOG.md, 0.2.0). */
  type FilterParseOptions,
  /** @deprecated Import it from 'rx-advisors/rag' (CHANGELOG.md, 0.2.0). */
  type InMemoryVectorStoreOptions,
  /** @deprecated Import it from 'rx-advisors/rag' (CHANGELOG.md, 0.2.0). */
  type ResolvedSearchRequest,
  /** @deprecated Import it from 'rx-advisors/rag' (CHANGELOG.md, 0.2.0). */
  type QuestionAnswerAdvisorOptions,
  /** @deprecated Import it from 'rx-advisors/rag' (CHANGELOG.md, 0.2.0). */
  type Retrieval,
  /** @deprecated Import it from 'rx-advisors/rag' (CHANGELOG.md, 0.2.0). */
  type EmitSources,
  /** @deprecated Import it from 'rx-advisors/rag' (CHANGELOG.md, 0.2.0). */
  type RagRetrieval,
  /** @deprecated Import it from 'rx-advisors/rag' (CHANGELOG.md, 0.2.0). */
  type RetrievalAugmentationAdvisorOptions,
  /** @deprecated Import it from 'rx-advisors/rag' (CHANGELOG.md, 0.2.0). */
  type Query,
  /** @deprecated Import it from 'rx-advisors/rag' (CHANGELOG.md, 0.2.0). */
  type RagStageContext,
  /** @deprecated Import it from 'rx-advisors/rag' (CHANGELOG.md, 0.2.0). */
  type QueryTransformer,
  /** @deprecated Import it from 'rx-advisors/rag' (CHANGELOG.md, 0.2.0). */
  type RewriteQueryTransformerOptions,
  /** @deprecated Import it from 'rx-advisors/rag' (CHANGELOG.md, 0.2.0). */
  type CompressionQueryTransformerOptions,
  /** @deprecated Import it from 'rx-advisors/rag' (CHANGELOG.md, 0.2.0). */
  type TranslationQueryTransformerOptions,
  /** @deprecated Import it from 'rx-advisors/rag' (CHANGELOG.md, 0.2.0). */
  type QueryExpander,
  /** @deprecated Import it from 'rx-advisors/rag' (CHANGELOG.md, 0.2.0). */
  type MultiQueryExpanderOptions,
  /** @deprecated Import it from 'rx-advisors/rag' (CHANGELOG.md, 0.2.0). */
  type DocumentRetriever,
  /** @deprecated Import it from 'rx-advisors/rag' (CHANGELOG.md, 0.2.0). */
  type VectorStoreDocumentRetrieverOptions,
  /** @deprecated Import it from 'rx-advisors/rag' (CHANGELOG.md, 0.2.0). */
  type DocumentJoiner,
  /** @deprecated Import it from 'rx-advisors/rag' (CHANGELOG.md, 0.2.0). */
  type RetrievedDocuments,
  /** @deprecated Import it from 'rx-advisors/rag' (CHANGELOG.md, 0.2.0). */
  type ConcatenationDocumentJoinerOptions,
  /** @deprecated Import it from 'rx-advisors/rag' (CHANGELOG.md, 0.2.0). */
  type ReciprocalRankFusionDocumentJoinerOptions,
  /** @deprecated Import it from 'rx-advisors/rag' (CHANGELOG.md, 0.2.0). */
  type DocumentPostProcessor,
  /** @deprecated Import it from 'rx-advisors/rag' (CHANGELOG.md, 0.2.0). */
  type TopKDocumentPostProcessorOptions,
  /** @deprecated Import it from 'rx-advisors/rag' (CHANGELOG.md, 0.2.0). */
  type ChatClientDocumentRerankerOptions,
  /** @deprecated Import it from 'rx-advisors/rag' (CHANGELOG.md, 0.2.0). */
  type Augmentation,
  /** @deprecated Import it from 'rx-advisors/rag' (CHANGELOG.md, 0.2.0). */
  type QueryAugmenter,
  /** @deprecated Import it from 'rx-advisors/rag' (CHANGELOG.md, 0.2.0). */
  type ContextualQueryAugmenterOptions,
  /** @deprecated Import it from 'rx-advisors/rag' (CHANGELOG.md, 0.2.0). */
  type VectorStoreChatMemoryAdvisorOptions,
  /** @deprecated Import it from 'rx-advisors/rag' (CHANGELOG.md, 0.2.0). */
  type VectorStoreOperation,
} from './rag/index.js';

// Internals: no entry point exports them any more
export {
  /** @deprecated Internal; fold a stream into a response with `aggregate()` instead (CHANGELOG.md, 0.2.0). */
  ResponseAssembler,
} from './core/response-assembler.js';
export {
  /** @deprecated Internal; removed in the next release (CHANGELOG.md, 0.2.0). */
  isWebUrl,
} from './core/web-url.js';
export {
  /** @deprecated Internal: QuestionAnswerAdvisor uses it when no `template` is given (CHANGELOG.md, 0.2.0). */
  DEFAULT_QUESTION_ANSWER_TEMPLATE,
} from './rag/question-answer-advisor.js';
export {
  /** @deprecated Internal: RewriteQueryTransformer uses it when no `template` is given (CHANGELOG.md, 0.2.0). */
  DEFAULT_REWRITE_TEMPLATE,
} from './rag/pre-retrieval/rewrite-query-transformer.js';
export {
  /** @deprecated Internal: CompressionQueryTransformer uses it when no `template` is given (CHANGELOG.md, 0.2.0). */
  DEFAULT_COMPRESSION_TEMPLATE,
} from './rag/pre-retrieval/compression-query-transformer.js';
export {
  /** @deprecated Internal: TranslationQueryTransformer uses it when no `template` is given (CHANGELOG.md, 0.2.0). */
  DEFAULT_TRANSLATION_TEMPLATE,
} from './rag/pre-retrieval/translation-query-transformer.js';
export {
  /** @deprecated Internal: MultiQueryExpander uses it when no `template` is given (CHANGELOG.md, 0.2.0). */
  DEFAULT_MULTI_QUERY_TEMPLATE,
} from './rag/pre-retrieval/multi-query-expander.js';
export {
  /** @deprecated Internal: ChatClientDocumentReranker uses it when no `template` is given (CHANGELOG.md, 0.2.0). */
  DEFAULT_RERANK_TEMPLATE,
} from './rag/post-retrieval/chat-client-document-reranker.js';
export {
  /** @deprecated Internal: ContextualQueryAugmenter uses it when no `template` is given (CHANGELOG.md, 0.2.0). */
  DEFAULT_CONTEXTUAL_TEMPLATE,
} from './rag/augmentation/contextual-query-augmenter.js';
