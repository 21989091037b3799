import { composeToolCallInterceptors } from './tool-execution.js';
import {
  concatMap,
  defaultIfEmpty,
  defer,
  from,
  isObservable,
  of,
  take,
  type Observable,
  type ObservableInput,
} from 'rxjs';
import type { ToolCallEvent, ToolCallOutcome } from '../advisor-api/tool-call-interceptor.js';
import type { ChatRequest } from '../core/chat-request.js';
import { isPromiseLike } from '../core/is-promise-like.js';
import type { Message, ToolCall } from '../core/message.js';
import type { Tool } from '../core/tool.js';
import type { Usage } from '../core/usage.js';
import { LoopHookError } from '../errors/loop-hook-error.js';
import { ToolNotFoundError } from '../errors/tool-not-found-error.js';
import type { AroundCall } from './tool-execution.js';

/**
 * A tool call the loop could not run as the model sent it, as `repairToolCall` sees it.
 * @example
 * ```ts
 * import type { ToolCallRepairRequest } from 'rx-advisors';
 * const describe = ({ call, error, attempt }: ToolCallRepairRequest): string =>
 *   `${call.name} (attempt ${attempt}): ${error.message}`;
 * ```
 */
export interface ToolCallRepairRequest {
  /** The call as the model sent it (or as the previous repair left it). */
  readonly call: ToolCall;
  /** What is wrong: a `ToolNotFoundError` or a `ToolArgumentsError`. */
  readonly error: Error;
  /** The offered tool of that name (its `parameters` schema); `undefined` for an unknown name. */
  readonly tool: Tool | undefined;
  /** Every tool offered in the round. */
  readonly tools: readonly Tool[];
  /** The round's messages, for a repair that asks a model. */
  readonly messages: readonly Message[];
  readonly round: number;
  /** The repair attempt for this call, counting from 1. */
  readonly attempt: number;
  /** Adds what a repair spent (a model asked to fix the call) to the run's usage. */
  readonly reportUsage: (usage: Usage) => void;
}

/**
 * Repairs a tool call that names an unknown tool or fails argument validation: returns
 * the repaired call (its id is kept), or `undefined`/`null` to decline (the model then
 * sees the error result). May return a Promise or an Observable (its first value).
 * @example
 * ```ts
 * import { ToolCallingAdvisor, type ToolCallRepair } from 'rx-advisors';
 * const lowerCase: ToolCallRepair = ({ call, tools }) => {
 *   const match = tools.find((t) => t.name.toLowerCase() === call.name.toLowerCase());
 *   return match === undefined ? undefined : { ...call, name: match.name };
 * };
 * const loop = new ToolCallingAdvisor({ repairToolCall: lowerCase, maxRepairAttempts: 2 });
 * ```
 */
export type ToolCallRepair = (
  request: ToolCallRepairRequest,
) =>
  | ToolCall
  | null
  | undefined
  | PromiseLike<ToolCall | null | undefined>
  | Observable<ToolCall | null | undefined>;

/** What a round gives the repair. */
interface RepairScope {
  readonly repair: ToolCallRepair;
  readonly maxAttempts: number;
  readonly offered: ReadonlyMap<string, Tool>;
  readonly messages: readonly Message[];
  readonly round: number;
  readonly reportUsage: (usage: Usage) => void;
}

/**
 * The round's call-level wrapper with the repair innermost: the interceptors (a budget,
 * a journal) see the call as the model sent it, once; a call that cannot run is handed to
 * the repair, up to `maxRepairAttempts` times, before it runs (or fails as usual).
 * @internal
 */
export function withRepair(
  around: AroundCall | undefined,
  repair: ToolCallRepair,
  options: { readonly maxRepairAttempts: number },
  round: { readonly request: ChatRequest; readonly offered: ReadonlyMap<string, Tool> },
  state: { readonly round: number; readonly reportUsage: (usage: Usage) => void },
): AroundCall {
  const scope: RepairScope = {
    repair,
    maxAttempts: options.maxRepairAttempts,
    offered: round.offered,
    messages: round.request.messages,
    round: state.round,
    reportUsage: state.reportUsage,
  };
  const repairing: AroundCall = (call, proceed) => attempt(call, proceed, scope, 1);
  if (around === undefined) return repairing;
  return (call, proceed) => around(call, (next) => repairing(next, proceed));
}

function attempt(
  call: ToolCall,
  proceed: (call: ToolCall) => ToolCallOutcome,
  scope: RepairScope,
  count: number,
): ToolCallOutcome {
  const error = count > scope.maxAttempts ? undefined : problemOf(call, scope.offered);
  if (error === undefined) return proceed(call);
  const request: ToolCallRepairRequest = {
    call,
    error,
    tool: scope.offered.get(call.name),
    tools: [...scope.offered.values()],
    messages: scope.messages,
    round: scope.round,
    attempt: count,
    reportUsage: scope.reportUsage,
  };
  let returned: ReturnType<ToolCallRepair>;
  try {
    returned = scope.repair(request);
  } catch (cause) {
    throw new LoopHookError({ hook: 'repairToolCall', round: scope.round, cause });
  }
  const next = (repaired: unknown): ToolCallOutcome => {
    if (repaired === undefined || repaired === null) return proceed(call);
    return attempt(checked(repaired, call, scope.round), proceed, scope, count + 1);
  };
  if (!isObservable(returned) && !isPromiseLike(returned)) return next(returned);
  const repaired$: ObservableInput<unknown> = isObservable(returned) ? returned : from(returned);
  return defer(() => from(repaired$)).pipe(
    take(1),
    defaultIfEmpty(undefined as unknown),
    concatMap((repaired): Observable<ToolCallEvent> => {
      const outcome = next(repaired);
      return isObservable(outcome) ? outcome : of(outcome);
    }),
  );
}

/** Why the call cannot run: an unknown tool or arguments its schema refuses. */
function problemOf(call: ToolCall, offered: ReadonlyMap<string, Tool>): Error | undefined {
  const tool = offered.get(call.name);
  if (tool === undefined) {
    return new ToolNotFoundError({ toolName: call.name, available: [...offered.keys()] });
  }
  try {
    tool.parseArguments(call.arguments);
    return undefined;
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
}

function checked(value: unknown, original: ToolCall, round: number): ToolCall {
  const candidate = value as Partial<ToolCall>;
  if (
    typeof value !== 'object' ||
    typeof candidate.name !== 'string' ||
    typeof candidate.arguments !== 'string'
  ) {
    throw new LoopHookError({
      hook: 'repairToolCall',
      round,
      returned: value,
      expected: 'a tool call { name: string, arguments: string (JSON) }, or undefined to decline',
    });
  }
  return { id: original.id, name: candidate.name, arguments: candidate.arguments };
}

/**
 * The round's tool-call wrappers: the registered interceptors, and the repair (when the
 * loop has one) innermost around each call.
 * @internal
 */
export function roundInterceptors(
  round: { readonly request: ChatRequest; readonly offered: ReadonlyMap<string, Tool> },
  state: {
    readonly context: ChatRequest['context'];
    readonly round: number;
    readonly reportUsage: (usage: Usage) => void;
  },
  options: {
    readonly repairToolCall?: ToolCallRepair | undefined;
    readonly maxRepairAttempts: number;
  },
): {
  aroundCall: AroundCall | undefined;
  aroundExecute: ReturnType<typeof composeToolCallInterceptors>['aroundExecute'];
} {
  const { aroundCall, aroundExecute } = composeToolCallInterceptors(
    state.context,
    round.offered,
    state.round,
    round.request.toolContext,
  );
  const repair = options.repairToolCall;
  return {
    aroundCall:
      repair === undefined ? aroundCall : withRepair(aroundCall, repair, options, round, state),
    aroundExecute,
  };
}
