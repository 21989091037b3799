import type {
  ToolCallInterceptor,
  ToolCallInvocation,
} from '../advisor-api/tool-call-interceptor.js';
import type { ToolCall } from '../core/message.js';
import type { Tool, ToolApprovalDecision } from '../core/tool.js';

/**
 * What the interceptors' part of the approval step reads of the round (the fields of
 * `ApprovalGate` it needs).
 * @internal
 */
export interface InterceptedApproval {
  readonly tools: ReadonlyMap<string, Tool>;
  readonly values: Readonly<Record<string, unknown>>;
  readonly round: number;
  /** Decisions sent with the request, by call id. */
  readonly decided?: ReadonlyMap<string, ToolApprovalDecision> | undefined;
  /** The call's tool-call interceptors. */
  readonly interceptors?: readonly ToolCallInterceptor[] | undefined;
  /** The calling request's context, for the interceptors' invocations. */
  readonly context?: Map<string, unknown> | undefined;
}

/**
 * Whether an interceptor has a say in approvals.
 * @internal
 */
export const takesPartInApproval = (interceptor: ToolCallInterceptor): boolean =>
  interceptor.requiresApproval !== undefined || interceptor.knownDecision !== undefined;

/** One call as the interceptors see it. */
function invocationOf(call: ToolCall, gate: InterceptedApproval): ToolCallInvocation {
  return {
    call,
    tool: gate.tools.get(call.name),
    round: gate.round,
    values: gate.values,
    context: gate.context ?? new Map<string, unknown>(),
  };
}

/**
 * The decisions the round starts with: those sent with the request, then those an
 * interceptor already knows (a replayed run); the interceptors are told of the former.
 * @internal
 */
export function knownDecisions(
  calls: readonly ToolCall[],
  gate: InterceptedApproval,
): ReadonlyMap<string, ToolApprovalDecision> | undefined {
  const interceptors = gate.interceptors ?? [];
  const { decided } = gate;
  if (decided !== undefined) {
    for (const call of calls) {
      const decision = decided.get(call.id);
      if (decision !== undefined) tellDecision(call, decision, gate);
    }
  }
  if (!interceptors.some((interceptor) => interceptor.knownDecision !== undefined)) return decided;
  const all = new Map(decided);
  for (const call of calls) {
    if (all.has(call.id)) continue;
    const invocation = invocationOf(call, gate);
    for (const interceptor of interceptors) {
      const decision = interceptor.knownDecision?.(invocation);
      if (decision !== undefined) {
        all.set(call.id, decision);
        break;
      }
    }
  }
  return all;
}

/**
 * Tells every interceptor of a decision taken for a call.
 * @internal
 */
export function tellDecision(
  call: ToolCall,
  decision: ToolApprovalDecision,
  gate: InterceptedApproval,
): void {
  const interceptors = gate.interceptors;
  if (interceptors === undefined || interceptors.length === 0) return;
  const invocation = invocationOf(call, gate);
  for (const interceptor of interceptors) interceptor.decided?.(invocation, decision);
}

/**
 * Whether an interceptor sends the call through the approval flow.
 * @internal
 */
export function requiredByInterceptor(call: ToolCall, gate: InterceptedApproval): boolean {
  const { interceptors } = gate;
  if (interceptors === undefined || interceptors.length === 0) return false;
  const invocation = invocationOf(call, gate);
  return interceptors.some((interceptor) => interceptor.requiresApproval?.(invocation) === true);
}
