import { Order } from '../advisor-api/order.js';
import { ADVISOR_IDENTITY_RULES } from '../advisor-api/validate-advisor-identity.js';
import { Rules, type OptionRules } from '../core/validate-options.js';
import type { DocumentJoiner } from './retrieval/document-joiner.js';
import type { DocumentPostProcessor } from './post-retrieval/document-post-processor.js';
import type { DocumentRetriever } from './retrieval/document-retriever.js';
import type { QueryAugmenter } from './augmentation/query-augmenter.js';
import type { QueryExpander } from './pre-retrieval/query-expander.js';
import type { QueryTransformer } from './pre-retrieval/query-transformer.js';
import type { RagRetrieval } from './rag-retrieval.js';
import { EMIT_SOURCES_RULE, type EmitSources } from './source-chunks.js';

/**
 * Options of `RetrievalAugmentationAdvisor`.
 * @example
 * ```ts partial
 * import { ReciprocalRankFusionDocumentJoiner, type RetrievalAugmentationAdvisorOptions } from 'rx-advisors/rag';
 * const options: RetrievalAugmentationAdvisorOptions = {
 *   documentRetrievers: [handbook, faq],
 *   documentJoiner: new ReciprocalRankFusionDocumentJoiner(),
 *   emitSources: true,
 * };
 * ```
 */
export interface RetrievalAugmentationAdvisorOptions {
  /** Where documents are found: one or more retrievers, each asked for every query. */
  documentRetrievers: readonly DocumentRetriever[];
  /** Applied in order before retrieval (rewrite, compress, translate); default none. */
  queryTransformers?: readonly QueryTransformer[];
  /** Turns the query into several (multi-query); default none (the query alone). */
  queryExpander?: QueryExpander;
  /** Merges every result list; default a `ConcatenationDocumentJoiner` (deduplicated by id). */
  documentJoiner?: DocumentJoiner;
  /**
   * Applied in order to the joined documents, before the record and the augmenter
   * (re-rank, filter, trim); default none.
   */
  documentPostProcessors?: readonly DocumentPostProcessor[];
  /** Puts the documents into the prompt; default a `ContextualQueryAugmenter`. */
  queryAugmenter?: QueryAugmenter;
  /** The most queries retrieved for (more from an expander are dropped); default 10. */
  maxQueries?: number;
  /** Retrievals running at once; default 4. */
  maxConcurrency?: number;
  /** Called with what was retrieved, before the model call; a throw fails the call. */
  onRetrieved?: (retrieval: RagRetrieval) => void;
  /**
   * Send the joined documents to the client as `source` chunks before the answer, as
   * `QuestionAnswerAdvisor`'s option of the same name does. Default `false`.
   */
  emitSources?: EmitSources;
  /** Default `Order.QUESTION_ANSWER` (`HIGHEST_PRECEDENCE + 220`), for the same reasons. */
  order?: number;
  /** Default `'retrieval-augmentation'`. */
  name?: string;
}

const isObjectWith =
  (method: string) =>
  (value: unknown): boolean =>
    typeof value === 'object' &&
    value !== null &&
    typeof (value as Record<string, unknown>)[method] === 'function';

const listOf = (method: string, min: number) => (value: unknown) =>
  Array.isArray(value) && value.length >= min && value.every(isObjectWith(method));

/** The defaults of {@link RetrievalAugmentationAdvisorOptions}. @internal */
export const RAG_DEFAULTS = {
  queryTransformers: [] as readonly QueryTransformer[],
  documentPostProcessors: [] as readonly DocumentPostProcessor[],
  maxQueries: 10,
  maxConcurrency: 4,
  emitSources: false as EmitSources,
  order: Order.QUESTION_ANSWER,
  name: 'retrieval-augmentation',
} as const;

/** The rules of {@link RetrievalAugmentationAdvisorOptions}. @internal */
export const RAG_RULES: OptionRules<RetrievalAugmentationAdvisorOptions> = {
  ...ADVISOR_IDENTITY_RULES,
  documentRetrievers: Rules.required(
    Rules.custom(
      'a non-empty array of DocumentRetriever (objects with retrieve(query))',
      listOf('retrieve', 1),
    ),
  ),
  queryTransformers: Rules.custom(
    'an array of QueryTransformer (objects with transform(query))',
    listOf('transform', 0),
  ),
  queryExpander: Rules.custom(
    'a QueryExpander (an object with expand(query))',
    isObjectWith('expand'),
  ),
  documentJoiner: Rules.custom(
    'a DocumentJoiner (an object with join(results))',
    isObjectWith('join'),
  ),
  documentPostProcessors: Rules.custom(
    'an array of DocumentPostProcessor (objects with process(query, documents))',
    listOf('process', 0),
  ),
  queryAugmenter: Rules.custom(
    'a QueryAugmenter (an object with augment(query, documents))',
    isObjectWith('augment'),
  ),
  maxQueries: Rules.integer(1, 100),
  maxConcurrency: Rules.integer(1, 64),
  onRetrieved: Rules.func,
  emitSources: EMIT_SOURCES_RULE,
};
