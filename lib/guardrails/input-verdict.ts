import { first, map, merge, type Observable } from 'rxjs';
import type { ChatRequest } from '../core/chat-request.js';
import type { GuardrailTrippedError } from '../errors/guardrail-tripped-error.js';
import type { InputGuardrail } from './guardrail.js';
import { answerOf } from './guardrail-answer.js';
import { isTripped, tripError } from './guardrail-trip.js';

/**
 * Runs every input guardrail at once and emits one value: the first trip (the other checks
 * are unsubscribed, their signals fire), or `undefined` once all have passed. A check that
 * throws or fails fails it.
 *
 * ```
 * checks:  a: ----p|          b: --t|
 * verdict: --(t|)             (b tripped first; a's check is aborted)
 * ```
 *
 * @example
 * ```ts
 * // internal: not exported
 * inputVerdict([noPasswords], request).subscribe((trip) => console.log(trip?.guardrail ?? 'passed'));
 * ```
 * @param guardrails The input guardrails (at least one).
 * @param request The request they check.
 * @returns The first trip, or `undefined`.
 * @internal
 */
export function inputVerdict(
  guardrails: readonly InputGuardrail[],
  request: ChatRequest,
): Observable<GuardrailTrippedError | undefined> {
  const checks = guardrails.map((guardrail) =>
    answerOf((context) => guardrail.checkInput(request, context)).pipe(
      map((verdict) =>
        isTripped(verdict) ? tripError(guardrail.name, 'input', verdict) : undefined,
      ),
    ),
  );
  return merge(...checks).pipe(
    first((trip): trip is GuardrailTrippedError => trip !== undefined, undefined),
  );
}
