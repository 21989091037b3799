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
 * @example
 * ```ts
 * resolveAdvisors({ advisors: [], request }); // [noToolsGuard()] for a request without tools
 * ```
 * @param options Registered advisors and the call's request.
 * @returns The advisors to chain (unsorted).
 */
export function resolveAdvisors(options: ResolveAdvisorsOptions): readonly Advisor[] {
  const added = addedAdvisor(options);
  return added === undefined ? options.advisors : [...options.advisors, added];
}

/**
 * The one advisor {@link resolveAdvisors} adds to the registered ones (the tool loop or the
 * no-tools guard), or `undefined` when it adds none. The added advisors are shared by every
 * call (each keeps its per-call state inside its subscription), so a client can reuse the
 * chain of a call that adds no advisors of its own.
 * @internal
 * @example
 * ```ts
 * addedAdvisor({ advisors: [], request }) === noToolsGuard(); // a request without tools
 * ```
 * @param options Registered advisors and the call's request.
 * @returns The advisor to add, or `undefined`.
 */
export function addedAdvisor(options: ResolveAdvisorsOptions): Advisor | undefined {
  const { advisors, request } = options;
  if (countLoops(advisors) === 1) return undefined;
  if (request.context.get(AdvisorParams.TOOL_CALLING_ADVISOR_AUTO_REGISTER) === false) {
    return undefined;
  }
  const needsLoop = request.tools.length > 0 || advisors.some(isToolContributor);
  // No tools: a tool call from the model is an error, not an empty answer (docs/tool-calling.md).
  if (!needsLoop) return noToolsGuard();
  const memoryInsideLoop = advisors.some(
    (advisor) => advisor.order > Order.TOOL_CALLING && isConversationHistoryAware(advisor),
  );
  return autoLoop(!memoryInsideLoop);
}

/** The tool loops among `advisors` (0 or 1; more is an `InvalidOptionsError`). */
function countLoops(advisors: readonly Advisor[]): number {
  let loops = 0;
  for (const advisor of advisors) if (isToolLoop(advisor)) loops++;
  if (loops > 1) {
    throw new InvalidOptionsError({
      option: 'advisors',
      value: advisors.filter(isToolLoop).map((advisor) => advisor.name),
      expected:
        'at most one ToolCallingAdvisor (or subclass) per call: remove one from defaultAdvisors() or advisors()',
    });
  }
  return loops;
}

/** The auto-registered loops, with and without the conversation history: one of each. */
const autoLoops = new Map<boolean, ToolCallingAdvisor>();

function autoLoop(conversationHistory: boolean): ToolCallingAdvisor {
  let loop = autoLoops.get(conversationHistory);
  if (loop === undefined) {
    loop = new ToolCallingAdvisor({ conversationHistory });
    autoLoops.set(conversationHistory, loop);
  }
  return loop;
}
