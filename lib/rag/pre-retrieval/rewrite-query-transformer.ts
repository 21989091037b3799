import type { Observable } from 'rxjs';
import type { ChatClient } from '../../client/chat-client.js';
import {
  Rules,
  validateOptions,
  withDefaults,
  type OptionRules,
} from '../../core/validate-options.js';
import { askForQuery, CHAT_CLIENT_RULE } from '../ask-model.js';
import { fillTemplate, hasSlots } from '../../core/fill-template.js';
import type { QueryTransformer } from './query-transformer.js';
import type { Query } from '../query.js';
import type { RagStageContext } from '../rag-stage-context.js';

/**
 * Options of {@link RewriteQueryTransformer}.
 * @example
 * ```ts partial
 * import type { RewriteQueryTransformerOptions } from 'rx-advisors/rag';
 * const options: RewriteQueryTransformerOptions = { chatClient, targetSearchSystem: 'product FAQ search' };
 * ```
 */
export interface RewriteQueryTransformerOptions {
  /** The client the rewrite is asked of (a small, cheap model does). */
  chatClient: ChatClient;
  /** What the query will be searched in, named in the prompt; default `'vector store'`. */
  targetSearchSystem?: string;
  /** The prompt; must contain `{query}` and `{target}`. */
  promptTemplate?: string;
}

/** The default prompt of {@link RewriteQueryTransformer}. */
export const DEFAULT_REWRITE_TEMPLATE = `Rewrite the user's query so that it finds the best results in a {target}.
Keep only what matters for the search, drop greetings and filler, and be specific and short.
Reply with the rewritten query only.

Query: {query}`;

const REWRITE_RULES: OptionRules<RewriteQueryTransformerOptions> = {
  chatClient: CHAT_CLIENT_RULE,
  targetSearchSystem: Rules.nonEmptyString,
  promptTemplate: Rules.custom(
    'a string containing {query} and {target}',
    hasSlots('query', 'target'),
  ),
};

/**
 * Asks a model to rewrite the query for search: verbose or vague questions become short,
 * specific search queries. A blank answer keeps the query. The model call's usage counts
 * in the call's usage.
 *
 * @example
 * ```ts partial
 * import { ChatClient } from 'rx-advisors';
 * import { RetrievalAugmentationAdvisor, RewriteQueryTransformer, VectorStoreDocumentRetriever } from 'rx-advisors/rag';
 *
 * const rag = new RetrievalAugmentationAdvisor({
 *   queryTransformers: [new RewriteQueryTransformer({ chatClient: ChatClient.create(smallModel) })],
 *   documentRetrievers: [new VectorStoreDocumentRetriever({ vectorStore: store })],
 * });
 * ```
 */
export class RewriteQueryTransformer implements QueryTransformer {
  private readonly settings: Required<RewriteQueryTransformerOptions>;

  /** @param options The client, the target search system and the prompt. */
  constructor(options: RewriteQueryTransformerOptions) {
    this.settings = withDefaults(
      { targetSearchSystem: 'vector store', promptTemplate: DEFAULT_REWRITE_TEMPLATE },
      validateOptions(options ?? ({} as RewriteQueryTransformerOptions), REWRITE_RULES),
    );
  }

  transform(query: Query, stage: RagStageContext): Observable<Query> {
    const { chatClient, promptTemplate, targetSearchSystem } = this.settings;
    const prompt = fillTemplate(promptTemplate, { query: query.text, target: targetSearchSystem });
    return askForQuery(chatClient, prompt, query, stage);
  }
}
