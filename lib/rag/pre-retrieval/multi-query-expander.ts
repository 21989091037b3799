import { map, type Observable } from 'rxjs';
import type { ChatClient } from '../../client/chat-client.js';
import {
  Rules,
  validateOptions,
  withDefaults,
  type OptionRules,
} from '../../core/validate-options.js';
import { askModel, CHAT_CLIENT_RULE } from '../ask-model.js';
import { fillTemplate, hasSlots } from '../../core/fill-template.js';
import type { QueryExpander } from './query-expander.js';
import type { Query } from '../query.js';
import type { RagStageContext } from '../rag-stage-context.js';

/**
 * Options of {@link MultiQueryExpander}.
 * @example
 * ```ts partial
 * import type { MultiQueryExpanderOptions } from 'rx-advisors/rag';
 * const options: MultiQueryExpanderOptions = { chatClient, numberOfQueries: 4, includeOriginal: false };
 * ```
 */
export interface MultiQueryExpanderOptions {
  /** The client the variants are asked of. */
  chatClient: ChatClient;
  /** How many variants to ask for (and keep at most); default 3, at most 10. */
  numberOfQueries?: number;
  /** Also search for the query itself, first; default `true`. */
  includeOriginal?: boolean;
  /** The prompt; must contain `{number}` and `{query}`; the answer is one query per line. */
  promptTemplate?: string;
}

/** The default prompt of {@link MultiQueryExpander}. */
export const DEFAULT_MULTI_QUERY_TEMPLATE = `Write {number} different versions of the query below for a search in a
vector store: other words, other angles, the same meaning. They help find documents the
query's own wording would miss.
Reply with the {number} versions only, one per line, without numbering.

Query: {query}`;

const MULTI_QUERY_DEFAULTS = {
  numberOfQueries: 3,
  includeOriginal: true,
  promptTemplate: DEFAULT_MULTI_QUERY_TEMPLATE,
} as const;

const MULTI_QUERY_RULES: OptionRules<MultiQueryExpanderOptions> = {
  chatClient: CHAT_CLIENT_RULE,
  numberOfQueries: Rules.integer(1, 10),
  includeOriginal: Rules.boolean,
  promptTemplate: Rules.custom(
    'a string containing {number} and {query}',
    hasSlots('number', 'query'),
  ),
};

/**
 * Multi-query expansion: asks a model for `numberOfQueries` rewordings of the query, one
 * per line, and retrieves for each (and for the query itself, with `includeOriginal`), so
 * documents phrased differently from the question are found too. Numbering and bullets in
 * the answer are stripped, duplicates dropped, extra lines ignored; an answer with no usable
 * line leaves the query alone.
 *
 * @example
 * ```ts partial
 * import { ChatClient } from 'rx-advisors';
 * import { MultiQueryExpander, RetrievalAugmentationAdvisor } from 'rx-advisors/rag';
 *
 * const rag = new RetrievalAugmentationAdvisor({
 *   queryExpander: new MultiQueryExpander({ chatClient: ChatClient.create(smallModel), numberOfQueries: 3 }),
 *   documentRetrievers: [retriever],
 * });
 * ```
 */
export class MultiQueryExpander implements QueryExpander {
  private readonly settings: typeof MULTI_QUERY_DEFAULTS & MultiQueryExpanderOptions;

  /** @param options The client, how many variants, whether to keep the query, the prompt. */
  constructor(options: MultiQueryExpanderOptions) {
    this.settings = withDefaults(
      MULTI_QUERY_DEFAULTS,
      validateOptions(options ?? ({} as MultiQueryExpanderOptions), MULTI_QUERY_RULES),
    );
  }

  expand(query: Query, stage: RagStageContext): Observable<readonly Query[]> {
    const { chatClient, promptTemplate, numberOfQueries, includeOriginal } = this.settings;
    const prompt = fillTemplate(promptTemplate, {
      number: String(numberOfQueries),
      query: query.text,
    });
    return askModel(chatClient, prompt, stage).pipe(
      map((answer) => {
        const seen = new Set([query.text.trim().toLowerCase()]);
        const variants: Query[] = [];
        for (const line of answer.split('\n')) {
          const text = line.replace(/^\s*(?:\d+[.)]|[-*•])\s*/, '').trim();
          const key = text.toLowerCase();
          if (text === '' || seen.has(key)) continue;
          seen.add(key);
          variants.push({ ...query, text });
          if (variants.length === numberOfQueries) break;
        }
        if (variants.length === 0) return [query];
        return includeOriginal ? [query, ...variants] : variants;
      }),
    );
  }
}
