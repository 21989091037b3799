import { concat, concatMap, defer, from, type Observable } from 'rxjs';
import type { Advisor, AdvisorChain } from '../advisor-api/advisor.js';
import { ContextKeys } from '../advisor-api/context-keys.js';
import { Order } from '../advisor-api/order.js';
import { ADVISOR_IDENTITY_RULES } from '../advisor-api/validate-advisor-identity.js';
import type { ChatChunk } from '../core/chat-chunk.js';
import type { ChatRequest } from '../core/chat-request.js';
import type { Message } from '../core/message.js';
import type { Usage } from '../core/usage.js';
import {
  Rules,
  validateOptions,
  withDefaults,
  type OptionRules,
} from '../core/validate-options.js';
import { EmptyQuestionError } from '../errors/empty-question-error.js';
import type { ScoredDocument } from '../vector/document.js';
import type { FilterExpression } from '../vector/filter-expression.js';
import type { SearchRequest, VectorStore } from '../vector/vector-store.js';
import { SEARCH_REQUEST_RULE, SEARCHABLE_VECTOR_STORE_RULE } from '../vector/vector-store-rules.js';
import { EMIT_SOURCES_RULE, sourceChunks, type EmitSources } from './source-chunks.js';

/**
 * What {@link QuestionAnswerAdvisor} retrieved for one call.
 *
 * @example
 * ```ts
 * import type { Retrieval } from 'rx-advisors/rag';
 * const onRetrieved = (r: Retrieval) => console.log(r.question, r.documents.map((d) => d.id));
 * ```
 */
export interface Retrieval {
  /** The user's question, as searched for. */
  readonly question: string;
  /** The documents found, most similar first (possibly none). */
  readonly documents: readonly ScoredDocument[];
  /** The tokens the question's embedding cost (not part of the chat usage). */
  readonly usage: Usage;
}

/**
 * Options of {@link QuestionAnswerAdvisor}.
 * @example
 * ```ts partial
 * import { QuestionAnswerAdvisor, type QuestionAnswerAdvisorOptions } from 'rx-advisors/rag';
 * const options: QuestionAnswerAdvisorOptions = { vectorStore: store, searchRequest: { topK: 3 } };
 * new QuestionAnswerAdvisor(options);
 * ```
 */
export interface QuestionAnswerAdvisorOptions {
  /** Where the documents are searched. */
  vectorStore: VectorStore;
  /** topK, similarityThreshold and filter of every search (the query is the question). */
  searchRequest?: Omit<SearchRequest, 'query'>;
  /**
   * Replaces the last user message; must contain `{query}` (the question) and
   * `{question_answer_context}` (the documents' texts, one per line). Default: Spring AI's.
   */
  promptTemplate?: string;
  /**
   * No document found: `'ask-model'` (default) sends the template with an empty context,
   * which tells the model to say it cannot answer; `'refuse'` answers `noDocumentsAnswer`
   * without calling the model.
   */
  onNoDocuments?: 'ask-model' | 'refuse';
  /** The answer of `onNoDocuments: 'refuse'`. */
  noDocumentsAnswer?: string;
  /** Called with what was retrieved, before the model call; a throw fails the call. */
  onRetrieved?: (retrieval: Retrieval) => void;
  /**
   * Send the retrieved documents to the client as `source` chunks, before the answer (the UI
   * stream's `source-url` / `source-document` parts): `true` maps each with
   * `documentSource` (metadata `url`, `title`, `filename`, `mediaType`; never the text), a
   * function maps them yourself (`undefined` leaves one out; a throw fails the call before
   * the model call). Default `false`: what was retrieved reaches end users only when asked.
   */
  emitSources?: EmitSources;
  /** Default `Order.QUESTION_ANSWER` (`HIGHEST_PRECEDENCE + 220`). */
  order?: number;
  /** Default `'question-answer'`. */
  name?: string;
}

/** Spring AI's `QuestionAnswerAdvisor` template, so answers read the same. */
export const DEFAULT_QUESTION_ANSWER_TEMPLATE = `{query}

Context information is below, surrounded by ---------------------

---------------------
{question_answer_context}
---------------------

Given the context and provided history information and not prior knowledge,
reply to the user comment. If the answer is not in the context, inform
the user that you can't answer the question.`;

const QA_DEFAULTS = {
  searchRequest: {} as Omit<SearchRequest, 'query'>,
  promptTemplate: DEFAULT_QUESTION_ANSWER_TEMPLATE,
  onNoDocuments: 'ask-model',
  noDocumentsAnswer: "I don't know: I found nothing about that.",
  emitSources: false,
  order: Order.QUESTION_ANSWER,
  name: 'question-answer',
} as const;

const QA_RULES: OptionRules<QuestionAnswerAdvisorOptions> = {
  ...ADVISOR_IDENTITY_RULES,
  vectorStore: SEARCHABLE_VECTOR_STORE_RULE,
  searchRequest: SEARCH_REQUEST_RULE,
  promptTemplate: Rules.custom(
    'a string containing {query} and {question_answer_context}',
    (value) =>
      typeof value === 'string' &&
      value.includes('{query}') &&
      value.includes('{question_answer_context}'),
  ),
  onNoDocuments: Rules.oneOf('ask-model', 'refuse'),
  noDocumentsAnswer: Rules.nonEmptyString,
  onRetrieved: Rules.func,
  emitSources: EMIT_SOURCES_RULE,
};

/**
 * Retrieval-augmented answers: before the model call it searches the vector store for the
 * user's question (an Observable, cancelled with the call), records what it found in
 * `request.context` (`ContextKeys.RETRIEVED_DOCUMENTS`) and `onRetrieved`, and replaces the
 * last user message with the prompt template filled with the question and the documents.
 * A per-call filter comes from `advisorParams({ [QuestionAnswerAdvisor.FILTER_EXPRESSION]: "…" })`.
 * With `emitSources`, the documents go out first as `source` chunks (for the client only).
 *
 * ```
 * search:  ---r|              (one SearchResult)
 * model:      -a-f|          (subscribed when r arrives)
 * result:  ----a-f|
 * ```
 *
 * @example
 * ```ts partial
 * import { ChatClient } from 'rx-advisors';
 * import { InMemoryVectorStore, QuestionAnswerAdvisor } from 'rx-advisors/rag';
 *
 * const client = ChatClient.builder(model)
 *   .defaultAdvisors(new QuestionAnswerAdvisor({ vectorStore: store, searchRequest: { topK: 3 } }))
 *   .build();
 * client.prompt('How long do refunds take?').call().content().subscribe(console.log);
 * ```
 */
export class QuestionAnswerAdvisor implements Advisor {
  /** @deprecated Use `Order.QUESTION_ANSWER`, the one name of this default; removed in the next release. */
  static readonly DEFAULT_ORDER = Order.QUESTION_ANSWER;
  /** The advisor param holding a per-call filter expression (text or parsed); Spring AI's name. */
  static readonly FILTER_EXPRESSION = 'qa_filter_expression';
  readonly name: string;
  readonly order: number;
  private readonly settings: Required<Omit<QuestionAnswerAdvisorOptions, 'onRetrieved'>> &
    Pick<QuestionAnswerAdvisorOptions, 'onRetrieved'>;

  /** @param options The store, the search, the template, the no-documents policy, order and name. */
  constructor(options: QuestionAnswerAdvisorOptions) {
    const resolved = withDefaults(QA_DEFAULTS, validateOptions(options ?? {}, QA_RULES));
    this.name = resolved.name;
    this.order = resolved.order;
    this.settings = resolved;
  }

  /**
   * What the advisor retrieved in a call (its `request.context`), for advisors after it.
   * @param context The call's context.
   * @returns The retrieval, or `undefined` before it ran.
   */
  static retrieval(context: ReadonlyMap<string, unknown>): Retrieval | undefined {
    return context.get(ContextKeys.RETRIEVED_DOCUMENTS) as Retrieval | undefined;
  }

  advise(request: ChatRequest, chain: AdvisorChain): Observable<ChatChunk> {
    return defer(() => {
      const question = request.lastUserText;
      if (question === undefined || question.trim() === '') {
        throw new EmptyQuestionError({ advisorName: this.name });
      }
      const perCall = request.context.get(QuestionAnswerAdvisor.FILTER_EXPRESSION) as
        string | FilterExpression | undefined;
      const search: SearchRequest = { ...this.settings.searchRequest, query: question };
      if (perCall !== undefined) search.filter = perCall;
      return this.settings.vectorStore.similaritySearch(search).pipe(
        concatMap(({ documents, usage }) => {
          const retrieval: Retrieval = { question, documents, usage };
          request.context.set(ContextKeys.RETRIEVED_DOCUMENTS, retrieval);
          this.settings.onRetrieved?.(retrieval);
          if (documents.length === 0 && this.settings.onNoDocuments === 'refuse') {
            return from<ChatChunk[]>([
              { type: 'text-delta', text: this.settings.noDocumentsAnswer },
              { type: 'finish', reason: 'stop' },
            ]);
          }
          const sources = sourceChunks(documents, this.settings.emitSources);
          const answer$ = chain.next(
            request.withMessages(
              augment(request.messages, question, documents, this.settings.promptTemplate),
            ),
          );
          return sources.length === 0 ? answer$ : concat(from(sources), answer$);
        }),
      );
    });
  }
}

function augment(
  messages: readonly Message[],
  question: string,
  documents: readonly ScoredDocument[],
  template: string,
): Message[] {
  const context = documents.map((d) => d.text).join('\n');
  // One pass, so a question containing "{question_answer_context}" is not expanded again.
  const content = template.replace(/\{query\}|\{question_answer_context\}/g, (slot) =>
    slot === '{query}' ? question : context,
  );
  const last = messages.map((m) => m.role).lastIndexOf('user');
  return messages.map((m, i) => (i === last ? { role: 'user', content } : m));
}
