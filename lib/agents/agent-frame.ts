import { parentCallOf } from '../advisor-api/parent-call.js';
import { CALLING_CLIENT_KEY } from '../client/chat-client.js';

/** The `request.context` key under which a nested agent's call records who it is. */
const KEY = 'rx-advisors.agent';

/**
 * Who runs a call, for a call started by an agent tool: its name, the path of agents from
 * the top-level call (outermost first, itself last) and the identity the cycle check
 * compares (the agent's `ChatClient`).
 * @internal
 */
export interface AgentFrame {
  readonly name: string;
  readonly path: readonly string[];
  readonly identity: object;
}

/**
 * The advisor params that make a call the nested call of an agent tool: the parent call
 * (`ContextKeys.PARENT_CALL`, so the parent's inherited interceptors apply) and the frame.
 * @internal
 */
export function agentFrameOf(context: ReadonlyMap<string, unknown>): AgentFrame | undefined {
  const frame = context.get(KEY);
  return typeof frame === 'object' && frame !== null ? (frame as AgentFrame) : undefined;
}

/** The context key of {@link AgentFrame}, for the advisor params of a nested call. @internal */
export const AGENT_FRAME_KEY = KEY;

/**
 * The path of agents a call runs under, outermost first: `[]` for a top-level call,
 * `['research']` for the call an agent tool `research` started, `['research', 'web']` one
 * level further down.
 *
 * @example
 * ```ts partial
 * import { agentPathOf } from 'rx-advisors';
 * const speaker = agentPathOf(request.context).at(-1) ?? 'main';
 * ```
 * @param context A call's `request.context`.
 * @returns The agents' names.
 */
export function agentPathOf(context: ReadonlyMap<string, unknown>): readonly string[] {
  return agentFrameOf(context)?.path ?? [];
}

/**
 * Whether `identity` already runs a call in the chain of calls that ends at `context`: a
 * nested agent's call (its frame) or a call of a client an agent tool runs, the top-level
 * one included (the client names itself: `ChatClient.runsAsAgent`).
 * @internal
 */
export function isRunningIn(context: ReadonlyMap<string, unknown>, identity: object): boolean {
  const seen = new Set<ReadonlyMap<string, unknown>>();
  for (
    let call: ReadonlyMap<string, unknown> | undefined = context;
    call !== undefined && !seen.has(call);
    call = parentCallOf(call)
  ) {
    seen.add(call);
    if (call.get(CALLING_CLIENT_KEY) === identity) return true;
    if (agentFrameOf(call)?.identity === identity) return true;
  }
  return false;
}
