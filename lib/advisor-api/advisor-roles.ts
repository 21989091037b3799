import type { Advisor } from './advisor.js';

/**
 * The role of an advisor that runs the tool loop (`ToolCallingAdvisor` and its
 * subclasses). A `ChatClient` adds no loop of its own to a call that has one, and refuses
 * two in one chain.
 *
 * @example
 * ```ts
 * import { ToolCallingAdvisor } from 'rx-advisors';
 * import { isToolLoop } from 'rx-advisors/advisor-api';
 * isToolLoop(new ToolCallingAdvisor()); // true
 * ```
 */
export interface ToolLoopRole {
  readonly runsToolLoop: true;
}

/**
 * The role of an advisor that keeps the conversation itself (a chat memory advisor
 * ordered inside the tool loop). When such an advisor sits after the auto-registered
 * `ToolCallingAdvisor`, the loop runs with `conversationHistory: false`.
 *
 * @example
 * ```ts
 * import type { ConversationHistoryAware } from 'rx-advisors/advisor-api';
 * const aware: ConversationHistoryAware = { managesConversationHistory: true };
 * ```
 */
export interface ConversationHistoryAware {
  readonly managesConversationHistory?: boolean;
}

/**
 * The role of an advisor that adds tools to the request at run time (for example one that
 * picks tools from a registry per message). A ChatClient call whose request has no tools
 * still gets an auto-registered `ToolCallingAdvisor` when one of its advisors says
 * `contributesTools: true`. Such an advisor must be ordered before the loop (a lower
 * order than `Order.TOOL_CALLING`): the loop only runs tools offered in the request it sees.
 *
 * @example
 * ```ts
 * import { Order, type Advisor, type ToolContributor } from 'rx-advisors/advisor-api';
 *
 * const addTools: Advisor & ToolContributor = {
 *   name: 'add-tools',
 *   order: Order.TOOL_CALLING - 1, // before the loop, so the loop sees the tools
 *   contributesTools: true,
 *   advise: (request, chain) => chain.next(request.withTools([...request.tools, getTime])),
 * };
 * ```
 */
export interface ToolContributor {
  readonly contributesTools?: boolean;
}

/**
 * Whether `advisor` runs the tool loop (declares `runsToolLoop: true`).
 *
 * @example
 * ```ts
 * import { advisor, ToolCallingAdvisor } from 'rx-advisors';
 * import { isToolLoop } from 'rx-advisors/advisor-api';
 * const advisors = [advisor({ name: 'audit' }), new ToolCallingAdvisor()];
 * const loops = advisors.filter(isToolLoop); // [the ToolCallingAdvisor]
 * ```
 * @param advisor Any advisor.
 * @returns `true` for tool loop advisors.
 */
export function isToolLoop(advisor: Advisor): advisor is Advisor & ToolLoopRole {
  return (advisor as Partial<ToolLoopRole>).runsToolLoop === true;
}

/**
 * Whether `advisor` keeps the conversation itself (declares `managesConversationHistory: true`).
 *
 * @example
 * ```ts
 * import { MessageChatMemoryAdvisor, Order } from 'rx-advisors';
 * import { isConversationHistoryAware } from 'rx-advisors/advisor-api';
 * const memory = new MessageChatMemoryAdvisor({ order: Order.TOOL_CALLING + 10 });
 * isConversationHistoryAware(memory); // true: it sits inside the tool loop
 * ```
 * @param advisor Any advisor.
 * @returns `true` for advisors that manage the conversation history.
 */
export function isConversationHistoryAware(
  advisor: Advisor,
): advisor is Advisor & ConversationHistoryAware {
  return (advisor as ConversationHistoryAware).managesConversationHistory === true;
}

/**
 * Whether `advisor` adds tools to the request (declares `contributesTools: true`).
 *
 * @example
 * ```ts
 * import { type Advisor, isToolContributor, type ToolContributor } from 'rx-advisors/advisor-api';
 * const picker: Advisor & ToolContributor = {
 *   name: 'pick-tools',
 *   order: 0,
 *   contributesTools: true,
 *   advise: (request, chain) => chain.next(request),
 * };
 * isToolContributor(picker); // true
 * ```
 * @param advisor Any advisor.
 * @returns `true` for tool contributors.
 */
export function isToolContributor(advisor: Advisor): advisor is Advisor & ToolContributor {
  return (advisor as ToolContributor).contributesTools === true;
}
