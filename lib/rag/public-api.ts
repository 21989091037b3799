// The public names of retrieval-augmented generation (QuestionAnswerAdvisor, the modular
// RetrievalAugmentationAdvisor and its stages, vector-store chat memory), re-exported by the
// root entry point (lib/index.ts).
export {
  QuestionAnswerAdvisor,
  DEFAULT_QUESTION_ANSWER_TEMPLATE,
  type QuestionAnswerAdvisorOptions,
  type Retrieval,
} from './question-answer-advisor.js';
export { documentSource } from './document-source.js';
export type { EmitSources } from './source-chunks.js';
// Modular RAG (RetrievalAugmentationAdvisor and its stages) and vector-store chat memory
export {
  RetrievalAugmentationAdvisor,
  type RagRetrieval,
  type RetrievalAugmentationAdvisorOptions,
} from './retrieval-augmentation-advisor.js';
export type { Query } from './query.js';
export type { RagStageContext } from './rag-stage-context.js';
export type { QueryTransformer } from './query-transformer.js';
export type { QueryExpander } from './query-expander.js';
export type { DocumentRetriever } from './document-retriever.js';
export type { DocumentJoiner, RetrievedDocuments } from './document-joiner.js';
export type { Augmentation, QueryAugmenter } from './query-augmenter.js';
export {
  RewriteQueryTransformer,
  DEFAULT_REWRITE_TEMPLATE,
  type RewriteQueryTransformerOptions,
} from './rewrite-query-transformer.js';
export {
  CompressionQueryTransformer,
  DEFAULT_COMPRESSION_TEMPLATE,
  type CompressionQueryTransformerOptions,
} from './compression-query-transformer.js';
export {
  TranslationQueryTransformer,
  DEFAULT_TRANSLATION_TEMPLATE,
  type TranslationQueryTransformerOptions,
} from './translation-query-transformer.js';
export {
  MultiQueryExpander,
  DEFAULT_MULTI_QUERY_TEMPLATE,
  type MultiQueryExpanderOptions,
} from './multi-query-expander.js';
export {
  VectorStoreDocumentRetriever,
  type VectorStoreDocumentRetrieverOptions,
} from './vector-store-document-retriever.js';
export {
  ConcatenationDocumentJoiner,
  type ConcatenationDocumentJoinerOptions,
} from './concatenation-document-joiner.js';
export {
  ReciprocalRankFusionDocumentJoiner,
  type ReciprocalRankFusionDocumentJoinerOptions,
} from './reciprocal-rank-fusion-document-joiner.js';
export type { DocumentPostProcessor } from './document-post-processor.js';
export {
  TopKDocumentPostProcessor,
  type TopKDocumentPostProcessorOptions,
} from './top-k-document-post-processor.js';
export {
  ChatClientDocumentReranker,
  DEFAULT_RERANK_TEMPLATE,
  type ChatClientDocumentRerankerOptions,
} from './chat-client-document-reranker.js';
export {
  ContextualQueryAugmenter,
  DEFAULT_CONTEXTUAL_TEMPLATE,
  type ContextualQueryAugmenterOptions,
} from './contextual-query-augmenter.js';
export {
  VectorStoreChatMemoryAdvisor,
  type VectorStoreChatMemoryAdvisorOptions,
} from './vector-store-chat-memory-advisor.js';
