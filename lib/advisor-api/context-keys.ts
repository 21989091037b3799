/**
 * Keys under which advisors share data through the call's `request.context`.
 *
 * @example
 * ```ts partial
 * import { ContextKeys } from 'rx-advisors/advisor-api';
 * const transcript = request.context.get(ContextKeys.TOOL_LOOP_MESSAGES); // a ToolLoopTranscript
 * ```
 */
export const ContextKeys = {
  /**
   * The call's `ToolLoopTranscript`: the assistant tool-call messages and tool results the
   * tool loop added, for advisors outside the loop (memory, validation, evaluation). Read
   * it with `ToolLoopTranscript.of(request.context)`, `mark()` and `since(mark)`.
   */
  TOOL_LOOP_MESSAGES: 'rx-advisors.tool-loop.messages',
  /**
   * The call's `Retrieval` (question, retrieved documents, embedding usage), written by
   * `QuestionAnswerAdvisor` before the model call. Read it with
   * `QuestionAnswerAdvisor.retrieval(request.context)`.
   */
  RETRIEVED_DOCUMENTS: 'rx-advisors.rag.retrieved-documents',
  /**
   * A function `(invocation, proceed) => output` that wraps every tool `execute` the tool
   * loop runs for this call (the tool-execution core's per-call seam, used by
   * telemetry). An advisor ordered before the loop sets it; the loop reads it every round.
   */
  TOOL_CALL_INTERCEPTOR: 'rx-advisors.tool-loop.interceptor',
} as const;
