import { AdvisorParams } from '../advisor-api/advisor-params.js';
import {
  isConversationHistoryAware,
  isToolContributor,
  isToolLoop,
} from '../advisor-api/advisor-roles.js';
import type { Advisor } from '../advisor-api/advisor.js';
import { Order } from '../advisor-api/order.js';
import type { ChatRequest } from '../core/chat-request.js';
import { InvalidOptionsError } from '../errors/invalid-options-error.js';
import { ToolCallingAdvisor } from '../tools/tool-calling-advisor.js';
import { noToolsGuard } from './no-tools-guard.js';

/** Options of {@link resolveAdvisors}. */
export interface ResolveAdvisorsOptions {
  /** The default advisors, then the call's own, in registration order. */
  advisors: readonly Advisor[];
  /** The call's first request. */
  request: ChatRequest;
}

/**
 * The advisors a ChatClient call runs: the registered ones, plus a `ToolCallingAdvisor`
 * when the call has tools (or an advisor `isToolContributor`), no tool loop advisor
 * (`isToolLoop`) is registered yet, and the call did not set `toolCallingAdvisorAutoRegister: false`;
 * a call with no tools at all gets `noToolsGuard()` instead (a tool call is an error). Two
 * tool calling advisors in one chain is an `InvalidOptionsError`. When an advisor ordered
 * after the loop manages the conversation itself (`isConversationHistoryAware`), the
 * added loop runs with `conversationHistory: false`.
 * @internal
 * @param options Registered advisors and the call's request.
 * @returns The advisors to chain (unsorted).
 */
export function resolveAdvisors(options: ResolveAdvisorsOptions): readonly Advisor[] {
  const { advisors, request } = options;
  const loops = advisors.filter(isToolLoop);
  if (loops.length > 1) {
    throw new InvalidOptionsError({
      option: 'advisors',
      value: loops.map((advisor) => advisor.name),
      expected:
        'at most one ToolCallingAdvisor (or subclass) per call: remove one from defaultAdvisors() or advisors()',
    });
  }
  if (loops.length === 1) return advisors;
  if (request.context.get(AdvisorParams.TOOL_CALLING_ADVISOR_AUTO_REGISTER) === false) {
    return advisors;
  }
  const needsLoop = request.tools.length > 0 || advisors.some(isToolContributor);
  // No tools: a tool call from the model is an error, not an empty answer (docs/tool-calling.md).
  if (!needsLoop) return [...advisors, noToolsGuard()];
  const memoryInsideLoop = advisors.some(
    (advisor) => advisor.order > Order.TOOL_CALLING && isConversationHistoryAware(advisor),
  );
  return [...advisors, new ToolCallingAdvisor({ conversationHistory: !memoryInsideLoop })];
}
