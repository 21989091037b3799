// The public names of retrieval-augmented generation (QuestionAnswerAdvisor, the modular
// RetrievalAugmentationAdvisor and its stages), re-exported by the
// root entry point (lib/index.ts).
export {
  QuestionAnswerAdvisor,
  DEFAULT_QUESTION_ANSWER_TEMPLATE,
  type QuestionAnswerAdvisorOptions,
  type Retrieval,
} from './question-answer-advisor.js';
export { documentSource } from './document-source.js';
export type { EmitSources } from './source-chunks.js';
// Modular RAG (RetrievalAugmentationAdvisor and its stages)
export {
  RetrievalAugmentationAdvisor,
  type RagRetrieval,
  type RetrievalAugmentationAdvisorOptions,
} from './retrieval-augmentation-advisor.js';
export type { Query } from './query.js';
export type { RagStageContext } from './rag-stage-context.js';
export type { QueryTransformer } from './pre-retrieval/query-transformer.js';
export type { QueryExpander } from './pre-retrieval/query-expander.js';
export type { DocumentRetriever } from './retrieval/document-retriever.js';
export type { DocumentJoiner, RetrievedDocuments } from './retrieval/document-joiner.js';
export type { Augmentation, QueryAugmenter } from './augmentation/query-augmenter.js';
export {
  RewriteQueryTransformer,
  DEFAULT_REWRITE_TEMPLATE,
  type RewriteQueryTransformerOptions,
} from './pre-retrieval/rewrite-query-transformer.js';
export {
  CompressionQueryTransformer,
  DEFAULT_COMPRESSION_TEMPLATE,
  type CompressionQueryTransformerOptions,
} from './pre-retrieval/compression-query-transformer.js';
export {
  TranslationQueryTransformer,
  DEFAULT_TRANSLATION_TEMPLATE,
  type TranslationQueryTransformerOptions,
} from './pre-retrieval/translation-query-transformer.js';
export {
  MultiQueryExpander,
  DEFAULT_MULTI_QUERY_TEMPLATE,
  type MultiQueryExpanderOptions,
} from './pre-retrieval/multi-query-expander.js';
export {
  VectorStoreDocumentRetriever,
  type VectorStoreDocumentRetrieverOptions,
} from './retrieval/vector-store-document-retriever.js';
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
  DEFAULT_RERANK_TEMPLATE,
  type ChatClientDocumentRerankerOptions,
} from './post-retrieval/chat-client-document-reranker.js';
export {
  ContextualQueryAugmenter,
  DEFAULT_CONTEXTUAL_TEMPLATE,
  type ContextualQueryAugmenterOptions,
} from './augmentation/contextual-query-augmenter.js';
