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
   * loop runs for this call. An advisor ordered before the loop sets it; the loop reads it
   * every round, inside the interceptors registered with `CallInterceptors`.
   * @deprecated Register a `ToolCallInterceptor` with `execute` through
   * `CallInterceptors.of(request.context).onToolCall(key, { execute })`: it composes with
   * the others instead of replacing them. This key keeps working for one release.
   */
  TOOL_CALL_INTERCEPTOR: 'rx-advisors.tool-loop.interceptor',
  /**
   * The call's `CallInterceptors`: the model-call and tool-call interceptors advisors
   * registered. Use `CallInterceptors.of(request.context)`.
   */
  CALL_INTERCEPTORS: 'rx-advisors.call.interceptors',
  /**
   * The `request.context` of the call this call is nested in (a `ChatClient` run as a tool
   * by another call's tool loop), set by the code that starts the nested call (as an
   * advisor param). Interceptors registered with `inherit` in the parent apply here too;
   * read the chain of ancestors with `parentCallOf`.
   */
  PARENT_CALL: 'rx-advisors.call.parent',
  /**
   * Set by a durable run (`DurableRunAdvisor`) on a call that resumes a recorded run:
   * `'completed'` when the journal says the run ended (the call only replays it), else
   * `'continued'`. The memory advisors ordered inside it read it so a resumed turn is
   * written once: nothing for a completed run, and not its inputs again when memory holds
   * them already (a run unsubscribed mid-call wrote them).
   */
  RUN_RESUME: 'rx-advisors.run.resume',
  /**
   * A `RecursionDecisionLog`: where recursive advisors that record their decisions (an
   * `EvaluationAdvisor`'s verdicts) find the recorded ones and hand the new ones. A
   * journal (a durable run ordered outside them) sets it, so a replay does not ask the
   * judge again.
   */
  RECURSION_DECISIONS: 'rx-advisors.recursion.decisions',
} as const;
