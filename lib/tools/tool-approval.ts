import {
  concat,
  concatMap,
  defaultIfEmpty,
  defer,
  finalize,
  from,
  isObservable,
  map,
  merge,
  of,
  take,
  toArray,
  type Observable,
} from 'rxjs';
import type { ChatChunk, ToolApprovalRequestChunk } from '../core/chat-chunk.js';
import { isPromiseLike } from '../core/is-promise-like.js';
import type { ToolCall, ToolMessage } from '../core/message.js';
import type { Tool, ToolApprovalDecision, ToolContext } from '../core/tool.js';
import type { ToolCallInterceptor } from '../advisor-api/tool-call-interceptor.js';
import {
  knownDecisions,
  type InterceptedApproval,
  requiredByInterceptor,
  takesPartInApproval,
  tellDecision,
} from './approval-interceptors.js';
import { toDecision } from './approval-decision.js';
import type { ToolLoopState } from './tool-loop-state.js';

export type { ToolApprovalDecision } from '../core/tool.js';

/**
 * The `approve` option of `ToolCallingAdvisor`: asked once per call that needs approval,
 * with the `tool-approval-request` chunk the loop emitted for it. Gives `true`/`false`, a
 * {@link ToolApprovalDecision}, or a Promise or Observable of one (its first value counts;
 * an Observable that completes empty denies the call with "no decision").
 * @example
 * ```ts
 * import { ToolCallingAdvisor, type ToolApprover } from 'rx-advisors';
 * import { createInterface } from 'node:readline/promises';
 *
 * const approve: ToolApprover = async ({ toolCall }) => {
 *   const rl = createInterface({ input: process.stdin, output: process.stdout });
 *   const answer = await rl.question(`Run ${toolCall.name}(${toolCall.arguments})? [y/N] `);
 *   rl.close();
 *   return answer === 'y' ? true : { approved: false, reason: 'the user said no' };
 * };
 * const loop = new ToolCallingAdvisor({ approve });
 * ```
 */
export type ToolApprover = (
  request: ToolApprovalRequestChunk,
  state: ToolLoopState,
) =>
  | boolean
  | ToolApprovalDecision
  | PromiseLike<boolean | ToolApprovalDecision>
  | Observable<boolean | ToolApprovalDecision>;

/**
 * The `requireApproval` option of `ToolCallingAdvisor`: tool names, or a predicate of the
 * call and the tool, for tools one does not own (MCP tools); adds to each tool's own
 * `needsApproval`.
 * @example
 * ```ts
 * import { ToolCallingAdvisor, type ToolApprovalRequirement } from 'rx-advisors';
 * const requireApproval: ToolApprovalRequirement = (call) => call.name.startsWith('delete');
 * const loop = new ToolCallingAdvisor({ requireApproval, approve: () => true });
 * ```
 */
export type ToolApprovalRequirement = readonly string[] | ((call: ToolCall, tool: Tool) => boolean);

/**
 * The approval id of a call: derived from the call id, so that a later request can match
 * a decision to the call in the conversation with no server-side state.
 * @internal
 */
export function approvalIdOf(call: ToolCall): string {
  return `approval-${call.id}`;
}

/**
 * The result the model sees for a denied call.
 * @internal
 */
export function denialMessage(call: ToolCall, reason: string | undefined): ToolMessage {
  const content = reason === undefined ? 'denied by the user' : `denied by the user: ${reason}`;
  return { role: 'tool', toolCallId: call.id, name: call.name, content };
}

/**
 * Whether any call of the round may need approval: `false` (the fast path: nothing is
 * parsed, nothing subscribed) unless a called tool declares `needsApproval` or the
 * advisor's `requireApproval` may apply.
 * @internal
 */
export function mayNeedApproval(
  calls: readonly ToolCall[],
  tools: ReadonlyMap<string, Tool>,
  requirement: ToolApprovalRequirement | undefined,
  interceptors: readonly ToolCallInterceptor[] = [],
): boolean {
  if (typeof requirement === 'function') return calls.length > 0;
  if (calls.length > 0 && interceptors.some(takesPartInApproval)) return true;
  for (const call of calls) {
    if (requirement?.includes(call.name) === true) return true;
    if (tools.get(call.name)?.needsApproval !== undefined) return true;
  }
  return false;
}

/** What the approval step of a round decided. @internal */
export class ApprovalOutcome {
  constructor(
    /** The results of the denied calls, by call id. */
    readonly denials: ReadonlyMap<string, ToolMessage>,
    /** Calls that need a decision no `approve` function gave (the loop pauses). */
    readonly pending: readonly ToolCall[],
  ) {}
}

/** How {@link approveToolCalls} decides. @internal */
export interface ApprovalGate extends InterceptedApproval {
  readonly requirement: ToolApprovalRequirement | undefined;
  readonly approve: ToolApprover | undefined;
  readonly state: ToolLoopState;
  /** Decisions already taken (sent with the request), by call id: asked no further. */
  readonly decided?: ReadonlyMap<string, ToolApprovalDecision> | undefined;
  /** Results the request has already, by call id: those calls do not run. */
  readonly answered?: ReadonlyMap<string, ToolMessage> | undefined;
}

/**
 * The approval step of a round: finds the calls that need approval (in call order),
 * emits a `tool-approval-request` chunk for each, asks `approve` for all of them at once,
 * then emits one {@link ApprovalOutcome}. Without `approve`, every call that needs
 * approval is pending. Unsubscribing cancels the pending decisions.
 * @internal
 * @example
 * ```ts
 * approveToolCalls(calls, gate).subscribe((item) => console.log(item));
 * ```
 */
export function approveToolCalls(
  calls: readonly ToolCall[],
  gate: ApprovalGate,
): Observable<ChatChunk | ApprovalOutcome> {
  return defer(() => {
    const controller = new AbortController();
    const { answered } = gate;
    const decided = knownDecisions(calls, gate);
    const denials = new Map<string, ToolMessage>(answered);
    let undecided = calls;
    if (decided !== undefined) {
      undecided = calls.filter((call) => !decided.has(call.id) && !denials.has(call.id));
      for (const call of calls) {
        const decision = decided.get(call.id);
        if (decision?.approved === false)
          denials.set(call.id, denialMessage(call, decision.reason));
      }
    }
    const needed$ = from(undecided).pipe(
      concatMap((call) =>
        needs(call, gate, controller.signal).pipe(map((need) => ({ call, need }))),
      ),
      toArray(),
      map((checked) => checked.filter(({ need }) => need).map(({ call }) => call)),
    );
    return needed$.pipe(
      concatMap((needed) => {
        const requests = needed.map((call): ToolApprovalRequestChunk => ({
          type: 'tool-approval-request',
          approvalId: approvalIdOf(call),
          toolCall: call,
        }));
        const { approve } = gate;
        if (approve === undefined) {
          return from<(ChatChunk | ApprovalOutcome)[]>([
            ...requests,
            new ApprovalOutcome(denials, needed),
          ]);
        }
        const decisions$ = merge(
          ...requests.map((request) =>
            decide$(approve, request, gate.state).pipe(
              map((decision) => {
                const { toolCall } = request;
                tellDecision(toolCall, decision, gate);
                if (!decision.approved) {
                  denials.set(toolCall.id, denialMessage(toolCall, decision.reason));
                }
              }),
            ),
          ),
        );
        return concat(
          from(requests),
          decisions$.pipe(
            toArray(),
            map(() => new ApprovalOutcome(denials, [])),
          ),
        );
      }),
      finalize(() => controller.abort()),
    );
  });
}

/** Whether one call needs approval; a call that will fail anyway (unknown tool, bad arguments) does not. */
function needs(call: ToolCall, gate: ApprovalGate, signal: AbortSignal): Observable<boolean> {
  const tool = gate.tools.get(call.name);
  if (tool === undefined) return of(false);
  if (requiredByInterceptor(call, gate)) return of(true);
  const { requirement } = gate;
  if (requirement !== undefined) {
    const required =
      typeof requirement === 'function' ? requirement(call, tool) : requirement.includes(call.name);
    if (required) return of(true);
  }
  const declared = tool.needsApproval;
  if (typeof declared !== 'function') return of(declared === true);
  let args: unknown;
  try {
    args = tool.parseArguments(call.arguments);
  } catch {
    return of(false);
  }
  const context: ToolContext = {
    values: gate.values,
    signal,
    toolCallId: call.id,
    round: gate.round,
  };
  const answer = declared(args, context);
  // Anything but `false` asks: a function that forgets to return does not let a call through.
  return isPromiseLike(answer) ? from(answer).pipe(map((a) => a !== false)) : of(answer !== false);
}

/** The first decision `approve` gives for one request, checked. */
function decide$(
  approve: ToolApprover,
  request: ToolApprovalRequestChunk,
  state: ToolLoopState,
): Observable<ToolApprovalDecision> {
  const noDecision: ToolApprovalDecision = { approved: false, reason: 'no decision' };
  return defer(() => {
    const answer: unknown = approve(request, state);
    const answer$: Observable<unknown> =
      isObservable(answer) || isPromiseLike(answer) ? from(answer).pipe(take(1)) : of(answer);
    return answer$.pipe(
      map((value) => toDecision(value, request.approvalId)),
      defaultIfEmpty(noDecision),
    );
  });
}

/**
 * The round's results in call order: the denials where calls were denied, else those run.
 * @internal
 */
export function mergeResults(
  calls: readonly ToolCall[],
  run: readonly ToolMessage[],
  denials: ReadonlyMap<string, ToolMessage> | undefined,
): ToolMessage[] {
  const merged: ToolMessage[] = [];
  let next = 0;
  for (const call of calls) merged.push(denials?.get(call.id) ?? run[next++]);
  return merged;
}
