/** Where the documents start in the demo's augmented user message. */
const DOCS_START = '\n\n<demo-docs>\n';
const DOCS_END = '\n</demo-docs>';

/**
 * The demo's `QuestionAnswerAdvisor` template. Unlike the default (answer only from the
 * context), the documents are help, not a fence: the demo's tools and chit-chat must still
 * work when a question has nothing to do with them.
 */
export const DEMO_DOCS_TEMPLATE =
  '{query}' +
  DOCS_START +
  '{question_answer_context}' +
  DOCS_END +
  '\n\nThe notes between <demo-docs> tags come from the demo documentation. Use them when ' +
  'they answer the question above; otherwise ignore them.';

/** A user message split back into the question and the documents' text. */
export interface DocsPrompt {
  question: string;
  /** The documents' texts as the advisor joined them (empty when none was found). */
  context: string;
}

/**
 * Splits a user message made with {@link DEMO_DOCS_TEMPLATE} (the offline model reads the
 * question and the documents apart, as a real model would).
 * @param content A user message's text.
 * @returns The parts, or `undefined` for a message the template did not make.
 */
export function splitDocsPrompt(content: string): DocsPrompt | undefined {
  const start = content.lastIndexOf(DOCS_START);
  const end = content.lastIndexOf(DOCS_END);
  if (start < 0 || end < start) return undefined;
  return {
    question: content.slice(0, start),
    context: content.slice(start + DOCS_START.length, end),
  };
}
