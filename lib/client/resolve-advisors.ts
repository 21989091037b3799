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
  return addedAdvisorOf(advisorFacts(options.advisors), options.request);
}

/**
 * What {@link addedAdvisorOf} needs to know of the registered advisors; a client reads it
 * once for its default advisors (`callChain`). Throws the `InvalidOptionsError` of two tool
 * loops.
 * @internal
 */
export interface AdvisorFacts {
  /** One of the advisors runs the tool loop. */
  readonly hasLoop: boolean;
  /** One of the advisors contributes tools (`isToolContributor`). */
  readonly contributesTools: boolean;
  /** An advisor ordered inside the loop manages the conversation itself. */
  readonly memoryInsideLoop: boolean;
}

/**
 * The facts of `advisors` that decide what a call gets added.
 * @internal
 * @example
 * ```ts
 * advisorFacts([]); // { hasLoop: false, contributesTools: false, memoryInsideLoop: false }
 * ```
 * @param advisors The registered advisors.
 * @returns Their facts.
 */
export function advisorFacts(advisors: readonly Advisor[]): AdvisorFacts {
  return {
    hasLoop: countLoops(advisors) === 1,
    contributesTools: advisors.some(isToolContributor),
    memoryInsideLoop: advisors.some(
      (advisor) => advisor.order > Order.TOOL_CALLING && isConversationHistoryAware(advisor),
    ),
  };
}

/**
 * {@link addedAdvisor} from the registered advisors' facts: what a call adds depends on
 * them, its tools and its `toolCallingAdvisorAutoRegister` param alone.
 * @internal
 * @example
 * ```ts
 * addedAdvisorOf(advisorFacts([]), request) === noToolsGuard(); // a request without tools
 * ```
 * @param facts The registered advisors' facts.
 * @param request The call's first request.
 * @returns The advisor to add, or `undefined`.
 */
export function addedAdvisorOf(facts: AdvisorFacts, request: ChatRequest): Advisor | undefined {
  if (facts.hasLoop) return undefined;
  const { context } = request;
  if (context.size > 0 && context.get(AdvisorParams.TOOL_CALLING_ADVISOR_AUTO_REGISTER) === false) {
    return undefined;
  }
  const needsLoop = request.tools.length > 0 || facts.contributesTools;
  // No tools: a tool call from the model is an error, not an empty answer (docs/tool-calling.md).
  if (!needsLoop) return noToolsGuard();
  return autoLoop(!facts.memoryInsideLoop);
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
