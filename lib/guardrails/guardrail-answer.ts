import {
  defaultIfEmpty,
  defer,
  finalize,
  from,
  isObservable,
  type Observable,
  of,
  take,
} from 'rxjs';
import { isPromiseLike } from '../core/is-promise-like.js';
import { SignalContext } from '../core/signal-context.js';
import type { GuardrailAnswer, GuardrailContext } from './guardrail.js';

/**
 * One check as a cold Observable of exactly one verdict (`undefined` = passed): the check
 * runs on subscription with an `AbortSignal` that fires when the subscription ends (so an
 * unsubscribed or outraced check stops its request), a synchronous answer is emitted at
 * once, an Observable's first value counts (none = passed).
 *
 * @example
 * ```ts
 * // internal: not exported
 * answerOf((context) => guardrail.checkInput(request, context)).subscribe(console.log);
 * ```
 * @param check The check to run.
 * @returns The verdict.
 * @internal
 */
export function answerOf<T>(
  check: (context: GuardrailContext) => GuardrailAnswer<T>,
): Observable<T | undefined> {
  return defer(() => {
    // The signal is made when a check reads it: a check that never does cannot see it
    // fire, and `abort()` costs a DOMException with a stack trace (tens of µs before the
    // first chunk of every call with a synchronous check, GUARD W4 rows in
    // docs/guardrails.md). `SignalContext`: no accessor of its own per check.
    const context = new SignalContext();
    const answer = check(context);
    const answer$: Observable<T | undefined> = isObservable(answer)
      ? answer
      : isPromiseLike<T | undefined>(answer)
        ? from(answer)
        : of(answer);
    return answer$.pipe(
      take(1),
      defaultIfEmpty(undefined),
      finalize(() => SignalContext.abort(context)),
    );
  });
}
