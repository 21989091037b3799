/**
 * Keys under which advisors share data through the call's `request.context`.
 *
 * @example
 * ```ts
 * import { ContextKeys } from 'rx-advisors';
 * const loopMessages = request.context.get(ContextKeys.TOOL_LOOP_MESSAGES); // Message[] | undefined
 * ```
 */
export const ContextKeys = {
  /**
   * `readonly Message[]`: the assistant tool-call messages and tool results the tool loop
   * added to the conversation, in order, so an advisor outside the loop (memory) can persist
   * them when the stream completes. `ToolCallingAdvisor` writes one new array per loop run
   * (subscription) when its first tool round ends and appends every later round to it;
   * compare arrays by identity to tell runs apart, and slice to keep a snapshot.
   */
  TOOL_LOOP_MESSAGES: 'rx-advisors.tool-loop.messages',
} as const;

/**
 * An advisor that keeps the conversation itself (a chat memory advisor ordered inside the
 * tool loop). When such an advisor sits after the auto-registered `ToolCallingAdvisor`,
 * the loop runs with `conversationHistory: false`.
 *
 * @example
 * ```ts
 * import type { ConversationHistoryAware } from 'rx-advisors';
 * const aware: ConversationHistoryAware = { managesConversationHistory: true };
 * ```
 */
export interface ConversationHistoryAware {
  readonly managesConversationHistory?: boolean;
}
