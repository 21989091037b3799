/**
 * Advisor order constants, with Spring's `Ordered` semantics: lower runs first
 * (outermost on the way in, last on the way out).
 *
 * @example
 * ```ts
 * import { advisor, Order } from 'rx-advisors';
 * const outermost = advisor({ name: 'audit', order: Order.HIGHEST_PRECEDENCE });
 * ```
 */
export const Order = {
  /** The outermost position: -2147483648. */
  HIGHEST_PRECEDENCE: -2147483648,
  /** The innermost position, still before the model: 2147483647. */
  LOWEST_PRECEDENCE: 2147483647,
  /** Default order of the chat memory advisors: `HIGHEST_PRECEDENCE + 200`. */
  CHAT_MEMORY: -2147483648 + 200,
  /** Default order of the structured output validation advisor: `HIGHEST_PRECEDENCE + 250`. */
  STRUCTURED_OUTPUT: -2147483648 + 250,
  /** Default order of the tool calling advisor: `HIGHEST_PRECEDENCE + 300`. */
  TOOL_CALLING: -2147483648 + 300,
  /** Default order of advisors without an explicit order: 0 (inside the tool loop). */
  DEFAULT: 0,
} as const;
