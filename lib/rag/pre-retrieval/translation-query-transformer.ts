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
 * Options of {@link TranslationQueryTransformer}.
 * @example
 * ```ts partial
 * import type { TranslationQueryTransformerOptions } from 'rx-advisors/rag';
 * const options: TranslationQueryTransformerOptions = { chatClient, targetLanguage: 'English' };
 * ```
 */
export interface TranslationQueryTransformerOptions {
  /** The client the translation is asked of. */
  chatClient: ChatClient;
  /** The language the documents are written (and embedded) in, e.g. `'English'`. */
  targetLanguage: string;
  /** The prompt; must contain `{query}` and `{target_language}`. */
  promptTemplate?: string;
}

/** The default prompt of {@link TranslationQueryTransformer}. */
export const DEFAULT_TRANSLATION_TEMPLATE = `Translate the query below into {target_language}.
If it is already in {target_language}, or its language cannot be told, return it unchanged.
Reply with the query only, without quotes or explanations.

Query: {query}`;

const TRANSLATION_RULES: OptionRules<TranslationQueryTransformerOptions> = {
  chatClient: CHAT_CLIENT_RULE,
  targetLanguage: Rules.required(Rules.nonEmptyString),
  promptTemplate: Rules.custom(
    'a string containing {query} and {target_language}',
    hasSlots('query', 'target_language'),
  ),
};

/**
 * Asks a model to translate the query into the language of the documents, so a question
 * in another language finds them (embedding models match best within one language). A
 * blank answer keeps the query. The augmenter still gets the user's own words.
 *
 * @example
 * ```ts partial
 * import { ChatClient } from 'rx-advisors';
 * import { TranslationQueryTransformer } from 'rx-advisors/rag';
 * const toEnglish = new TranslationQueryTransformer({ chatClient: ChatClient.create(smallModel), targetLanguage: 'English' });
 * ```
 */
export class TranslationQueryTransformer implements QueryTransformer {
  private readonly settings: Required<TranslationQueryTransformerOptions>;

  /** @param options The client, the target language and the prompt. */
  constructor(options: TranslationQueryTransformerOptions) {
    this.settings = withDefaults(
      { promptTemplate: DEFAULT_TRANSLATION_TEMPLATE },
      validateOptions(options ?? ({} as TranslationQueryTransformerOptions), TRANSLATION_RULES),
    );
  }

  transform(query: Query, stage: RagStageContext): Observable<Query> {
    const { chatClient, promptTemplate, targetLanguage } = this.settings;
    const prompt = fillTemplate(promptTemplate, {
      query: query.text,
      target_language: targetLanguage,
    });
    return askForQuery(chatClient, prompt, query, stage);
  }
}
