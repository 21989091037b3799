import { concatMap, isObservable, mergeMap, type Observable, of, throwError } from 'rxjs';
import type { ToolCall, ToolMessage } from '../core/message.js';
import type {
  ToolCallEvent,
  ToolCallInterceptor,
  ToolCallInvocation,
} from '../advisor-api/tool-call-interceptor.js';
import type { GuardrailVerdict, ToolGuardrail } from './guardrail.js';
import { answerOf } from './guardrail-answer.js';
import { DEFAULT_TRIP_MESSAGE, isTripped, tripError } from './guardrail-trip.js';

/**
 * Options of {@link toolGuardrailInterceptor}.
 * @internal
 */
export interface ToolGuardrailInterceptorOptions {
  /** The tool guardrails, checked in order. */
  readonly guardrails: readonly ToolGuardrail[];
  /** The input guardrails' verdict: no tool runs before it passes; a trip fails the call. */
  readonly gate?: { readonly verdict$: Observable<Error | undefined> } | undefined;
}

/**
 * The tool-call interceptor that applies tool guardrails (docs/seams.md): before a call runs,
 * every `checkCall` in order (a trip denies it: the model sees the guardrail's message as
 * the tool's error result; `end` stops the whole call with a `GuardrailTrippedError`; a
 * `rewrite` is what the next guardrail and the tool see); after it ran, every `checkResult`
 * on the message the model would see (a trip replaces it with an error result, `content`
 * rewrites it). `requiresApproval` sends a call through the loop's approval flow. With a
 * `gate`, no tool runs before the input guardrails have passed.
 *
 * @example
 * ```ts
 * // internal: not exported (GuardrailsAdvisor registers it)
 * CallInterceptors.of(request.context).onToolCall(key, toolGuardrailInterceptor({ guardrails }));
 * ```
 * @param options The guardrails and the input gate.
 * @returns The interceptor.
 * @internal
 */
export function toolGuardrailInterceptor(
  options: ToolGuardrailInterceptorOptions,
): ToolCallInterceptor {
  const { guardrails, gate } = options;
  const interceptor: ToolCallInterceptor = {};
  if (guardrails.some((g) => g.requiresApproval !== undefined)) {
    interceptor.requiresApproval = (invocation) =>
      guardrails.some((g) => g.requiresApproval?.(invocation) === true);
  }
  const checksCalls = guardrails.some((g) => g.checkCall !== undefined);
  const checksResults = guardrails.some((g) => g.checkResult !== undefined);
  if (gate === undefined && !checksCalls && !checksResults) return interceptor;
  interceptor.intercept = (invocation, proceed) => {
    const run = (call: ToolCall | ToolMessage): Observable<ToolCallEvent> => {
      if (!isCall(call)) return of(call);
      const outcome = proceed(call);
      const events$ = isObservable(outcome) ? outcome : of(outcome);
      if (!checksResults) return events$;
      return events$.pipe(
        concatMap((event) =>
          'role' in event ? checkResult(guardrails, invocation, event, 0) : of(event),
        ),
      );
    };
    const start$ = (gate?.verdict$ ?? of(undefined)).pipe(
      mergeMap((trip) =>
        trip === undefined
          ? checkCall(guardrails, invocation, invocation.call, 0)
          : throwError(() => trip),
      ),
    );
    return start$.pipe(mergeMap(run));
  };
  return interceptor;
}

const isCall = (value: ToolCall | ToolMessage): value is ToolCall => !('role' in value);

function denial(call: { id: string; name: string }, verdict: GuardrailVerdict): ToolMessage {
  return {
    role: 'tool',
    toolCallId: call.id,
    name: call.name,
    content: verdict.message ?? DEFAULT_TRIP_MESSAGE,
    isError: true,
  };
}

function checkCall(
  guardrails: readonly ToolGuardrail[],
  invocation: ToolCallInvocation,
  call: ToolCall,
  index: number,
): Observable<ToolCall | ToolMessage> {
  const guardrail = guardrails[index];
  if (guardrail === undefined) return of(call);
  if (guardrail.checkCall === undefined) return checkCall(guardrails, invocation, call, index + 1);
  const seen = call === invocation.call ? invocation : { ...invocation, call };
  return answerOf((context) => guardrail.checkCall?.(seen, context)).pipe(
    mergeMap((verdict) => {
      if (isTripped(verdict)) {
        if (verdict.end === true)
          return throwError(() => tripError(guardrail.name, 'tool', verdict));
        return of(denial(call, verdict));
      }
      return checkCall(guardrails, invocation, verdict?.rewrite ?? call, index + 1);
    }),
  );
}

function checkResult(
  guardrails: readonly ToolGuardrail[],
  invocation: ToolCallInvocation,
  message: ToolMessage,
  index: number,
): Observable<ToolMessage> {
  const guardrail = guardrails[index];
  if (guardrail === undefined) return of(message);
  if (guardrail.checkResult === undefined) {
    return checkResult(guardrails, invocation, message, index + 1);
  }
  return answerOf((context) => guardrail.checkResult?.(message, invocation, context)).pipe(
    mergeMap((verdict) => {
      if (isTripped(verdict)) {
        if (verdict.end === true)
          return throwError(() => tripError(guardrail.name, 'tool', verdict));
        return of(denial({ id: message.toolCallId, name: message.name }, verdict));
      }
      const next =
        verdict?.content === undefined ? message : { ...message, content: verdict.content };
      return checkResult(guardrails, invocation, next, index + 1);
    }),
  );
}
