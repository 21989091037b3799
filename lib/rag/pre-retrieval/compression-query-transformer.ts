import { of, type Observable } from 'rxjs';
import type { ChatClient } from '../../client/chat-client.js';
import type { Message } from '../../core/message.js';
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
 * Options of {@link CompressionQueryTransformer}.
 * @example
 * ```ts partial
 * import type { CompressionQueryTransformerOptions } from 'rx-advisors/rag';
 * const options: CompressionQueryTransformerOptions = { chatClient, maxHistoryMessages: 6 };
 * ```
 */
export interface CompressionQueryTransformerOptions {
  /** The client the standalone question is asked of. */
  chatClient: ChatClient;
  /** The prompt; must contain `{history}` and `{query}`. */
  promptTemplate?: string;
  /** The newest history messages sent with the prompt; default 10. */
  maxHistoryMessages?: number;
}

/** The default prompt of {@link CompressionQueryTransformer}. */
export const DEFAULT_COMPRESSION_TEMPLATE = `Here is a conversation and a follow-up question.
Rewrite the follow-up as one standalone question that can be understood without the
conversation: resolve "it", "that", "the second one" and similar references from it.
Reply with the standalone question only.

Conversation:
{history}

Follow-up question: {query}`;

const COMPRESSION_RULES: OptionRules<CompressionQueryTransformerOptions> = {
  chatClient: CHAT_CLIENT_RULE,
  promptTemplate: Rules.custom(
    'a string containing {history} and {query}',
    hasSlots('history', 'query'),
  ),
  maxHistoryMessages: Rules.integer(1, 1000),
};

/**
 * Compresses the conversation and a follow-up question into one standalone question
 * ("And for shoes?" after a talk about refunds becomes "How do refunds work for shoes?"), so
 * the search finds what the user means. Without history there is nothing to resolve: the
 * query passes unchanged and no model is called. User and assistant texts are sent (the
 * newest `maxHistoryMessages`); tool calls and results are left out.
 *
 * @example
 * ```ts partial
 * import { ChatClient } from 'rx-advisors';
 * import { CompressionQueryTransformer } from 'rx-advisors/rag';
 * const standalone = new CompressionQueryTransformer({ chatClient: ChatClient.create(smallModel) });
 * ```
 */
export class CompressionQueryTransformer implements QueryTransformer {
  private readonly settings: Required<CompressionQueryTransformerOptions>;

  /** @param options The client, the prompt and how much history to send. */
  constructor(options: CompressionQueryTransformerOptions) {
    this.settings = withDefaults(
      { promptTemplate: DEFAULT_COMPRESSION_TEMPLATE, maxHistoryMessages: 10 },
      validateOptions(options ?? ({} as CompressionQueryTransformerOptions), COMPRESSION_RULES),
    );
  }

  transform(query: Query, stage: RagStageContext): Observable<Query> {
    const { chatClient, promptTemplate, maxHistoryMessages } = this.settings;
    const history = renderHistory(query.history, maxHistoryMessages);
    if (history === '') return of(query);
    const prompt = fillTemplate(promptTemplate, { history, query: query.text });
    return askForQuery(chatClient, prompt, query, stage);
  }
}

/** `role: text` lines of the newest user and assistant messages with text. */
function renderHistory(history: readonly Message[], max: number): string {
  const lines: string[] = [];
  for (const message of history) {
    if (
      (message.role === 'user' || message.role === 'assistant') &&
      message.content.trim() !== ''
    ) {
      lines.push(`${message.role}: ${message.content}`);
    }
  }
  return lines.slice(-max).join('\n');
}
