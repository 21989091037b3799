const HIGHEST_PRECEDENCE = -2147483648;
const LOWEST_PRECEDENCE = 2147483647;

/**
 * Advisor order constants, with Spring's `Ordered` semantics: lower runs first
 * (outermost on the way in, last on the way out). Every built-in advisor's default order
 * is one of these, so the whole default chain reads top to bottom:
 *
 * ```
 * SAFE_GUARD (+100) → CHAT_MEMORY (+200) → QUESTION_ANSWER (+220) → RE_READING (+230)
 *   → EVALUATION (+240) → STRUCTURED_OUTPUT (+250)
 *   → TOOL_CALLING (+300) → DEFAULT (0: logger, advisor()) → RETRY (LOWEST - 1000) → model
 * ```
 *
 * @example
 * ```ts
 * import { advisor, Order } from 'rx-advisors';
 * const outermost = advisor({ name: 'audit', order: Order.HIGHEST_PRECEDENCE });
 * const insideTheLoop = advisor({ name: 'audit-rounds', order: Order.TOOL_CALLING + 10 });
 * ```
 */
export const Order = {
  /** The outermost position: -2147483648. */
  HIGHEST_PRECEDENCE,
  /** The innermost position, still before the model: 2147483647. */
  LOWEST_PRECEDENCE,
  /** Default order of `SafeGuardAdvisor`: `HIGHEST_PRECEDENCE + 100`, outermost, before memory. */
  SAFE_GUARD: HIGHEST_PRECEDENCE + 100,
  /** Default order of the chat memory advisors: `HIGHEST_PRECEDENCE + 200`. */
  CHAT_MEMORY: HIGHEST_PRECEDENCE + 200,
  /**
   * Default order of `QuestionAnswerAdvisor`: `HIGHEST_PRECEDENCE + 220`, inside memory (which
   * stores the question, not the augmented prompt) and outside validation and the tool loop
   * (one retrieval per call, not per attempt or round).
   */
  QUESTION_ANSWER: HIGHEST_PRECEDENCE + 220,
  /** Default order of `ReReadingAdvisor`: `HIGHEST_PRECEDENCE + 230`, just inside retrieval. */
  RE_READING: HIGHEST_PRECEDENCE + 230,
  /** Default order of `EvaluationAdvisor`: `HIGHEST_PRECEDENCE + 240`, outside structured output. */
  EVALUATION: HIGHEST_PRECEDENCE + 240,
  /** Default order of the structured output validation advisor: `HIGHEST_PRECEDENCE + 250`. */
  STRUCTURED_OUTPUT: HIGHEST_PRECEDENCE + 250,
  /**
   * Default order of `mcpToolsAdvisor()`: `HIGHEST_PRECEDENCE + 299`, just outside the tool
   * loop, which runs only the tools it is offered.
   */
  MCP_TOOLS: HIGHEST_PRECEDENCE + 299,
  /** Default order of the tool calling advisor: `HIGHEST_PRECEDENCE + 300`. */
  TOOL_CALLING: HIGHEST_PRECEDENCE + 300,
  /**
   * Default order of `ContextEditingAdvisor`: `HIGHEST_PRECEDENCE + 400`, inside the tool
   * loop (it edits every round's request) and after a memory advisor ordered inside it.
   */
  CONTEXT_EDITING: HIGHEST_PRECEDENCE + 400,
  /** Default order of advisors without an explicit order: 0 (inside the tool loop). */
  DEFAULT: 0,
  /** Default order of `RetryAdvisor`: `LOWEST_PRECEDENCE - 1000`, next to the model, inside the loop. */
  RETRY: LOWEST_PRECEDENCE - 1000,
  /**
   * Default order of `FallbackAdvisor`: `LOWEST_PRECEDENCE - 2000`, inside the tool loop and
   * just outside `RetryAdvisor`, so a model is retried first and replaced when retries fail.
   */
  FALLBACK: LOWEST_PRECEDENCE - 2000,
  /**
   * Default order of `PromptCachingAdvisor`: `LOWEST_PRECEDENCE - 3000`, inside the tool
   * loop (one report per round) and outside `FallbackAdvisor` and `RetryAdvisor`.
   */
  PROMPT_CACHING: LOWEST_PRECEDENCE - 3000,
} as const;
