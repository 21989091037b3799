import { defer, of, type Observable } from 'rxjs';
import {
  Rules,
  validateOptions,
  withDefaults,
  type OptionRules,
} from '../../core/validate-options.js';
import type { ScoredDocument } from '../../vector/document.js';
import { fillTemplate, hasSlots } from '../../core/fill-template.js';
import type { Augmentation, QueryAugmenter } from './query-augmenter.js';
import type { Query } from '../query.js';
import { DEFAULT_QUESTION_ANSWER_TEMPLATE } from '../question-answer-advisor.js';

/**
 * Options of {@link ContextualQueryAugmenter}.
 * @example
 * ```ts
 * import { ContextualQueryAugmenter, type ContextualQueryAugmenterOptions } from 'rx-advisors/rag';
 * const options: ContextualQueryAugmenterOptions = {
 *   promptTemplate: 'Answer from these notes only:\n{context}\n\nQuestion: {query}',
 *   onNoDocuments: 'refuse',
 *   noDocumentsAnswer: 'Nothing in the handbook about that.',
 * };
 * new ContextualQueryAugmenter(options);
 * ```
 */
export interface ContextualQueryAugmenterOptions {
  /**
   * Replaces the user's message; must contain `{query}` (the question) and `{context}` (the
   * formatted documents). Default: `QuestionAnswerAdvisor`'s template, so both advisors
   * prompt alike.
   */
  promptTemplate?: string;
  /**
   * No documents: `'ask-model'` (default) sends the template with an empty context, which
   * tells the model to say it cannot answer; `'refuse'` answers `noDocumentsAnswer` without
   * calling the model; `'pass-through'` sends the question unchanged (the model answers
   * from what it knows; Spring AI's `allowEmptyContext`).
   */
  onNoDocuments?: 'ask-model' | 'refuse' | 'pass-through';
  /** The answer of `onNoDocuments: 'refuse'`. */
  noDocumentsAnswer?: string;
  /** Turns the documents into the `{context}` text; default their texts, one per line. */
  documentFormatter?: (documents: readonly ScoredDocument[]) => string;
}

/** The default prompt of {@link ContextualQueryAugmenter}: `QuestionAnswerAdvisor`'s, `{context}` for its context slot. */
export const DEFAULT_CONTEXTUAL_TEMPLATE = DEFAULT_QUESTION_ANSWER_TEMPLATE.replace(
  '{question_answer_context}',
  '{context}',
);

const AUGMENTER_DEFAULTS = {
  promptTemplate: DEFAULT_CONTEXTUAL_TEMPLATE,
  onNoDocuments: 'ask-model',
  noDocumentsAnswer: "I don't know: I found nothing about that.",
  documentFormatter: (documents: readonly ScoredDocument[]): string =>
    documents.map((d) => d.text).join('\n'),
} as const;

const AUGMENTER_RULES: OptionRules<ContextualQueryAugmenterOptions> = {
  promptTemplate: Rules.custom(
    'a string containing {query} and {context}',
    hasSlots('query', 'context'),
  ),
  onNoDocuments: Rules.oneOf('ask-model', 'refuse', 'pass-through'),
  noDocumentsAnswer: Rules.nonEmptyString,
  documentFormatter: Rules.func,
};

/**
 * The default augmenter: the user's question and the documents filled into a prompt
 * template (in one pass, so a question containing `{context}` stays literal), with the
 * same no-documents policy as `QuestionAnswerAdvisor` (plus `'pass-through'`).
 *
 * @example
 * ```ts partial
 * import { ContextualQueryAugmenter, RetrievalAugmentationAdvisor } from 'rx-advisors/rag';
 * new RetrievalAugmentationAdvisor({
 *   documentRetrievers: [retriever],
 *   queryAugmenter: new ContextualQueryAugmenter({ onNoDocuments: 'refuse' }),
 * });
 * ```
 */
export class ContextualQueryAugmenter implements QueryAugmenter {
  private readonly settings: Required<ContextualQueryAugmenterOptions>;

  /** @param options The template, the no-documents policy and the document formatter. */
  constructor(options: ContextualQueryAugmenterOptions = {}) {
    this.settings = withDefaults(AUGMENTER_DEFAULTS, validateOptions(options, AUGMENTER_RULES));
  }

  augment(query: Query, documents: readonly ScoredDocument[]): Observable<Augmentation> {
    return defer(() => {
      const { onNoDocuments, noDocumentsAnswer, promptTemplate, documentFormatter } = this.settings;
      if (documents.length === 0 && onNoDocuments === 'refuse') {
        return of({ answer: noDocumentsAnswer });
      }
      if (documents.length === 0 && onNoDocuments === 'pass-through') {
        return of({ prompt: query.text });
      }
      const context = documents.length === 0 ? '' : documentFormatter(documents);
      return of({ prompt: fillTemplate(promptTemplate, { query: query.text, context }) });
    });
  }
}
