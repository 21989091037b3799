import { type Observable, of, ReplaySubject, share, tap } from 'rxjs';
import type { ChatRequest } from '../core/chat-request.js';
import type { GuardrailTrippedError } from '../errors/guardrail-tripped-error.js';
import type { InputGuardrail } from './guardrail.js';
import { inputVerdict } from './input-verdict.js';

type Verdict = GuardrailTrippedError | undefined;

/**
 * The input guardrails' verdict of one call, shared by the call's stream (`shared$`, which
 * holds the answer back until it passes) and its tool-call interceptor (`gate`: no tool runs
 * before). The interceptor lives in the request's context, so it reaches the shared
 * Observable only through {@link InputGate.verdict$}, and only until the verdict is in:
 * from then on it holds the verdict alone. Whatever the context keeps reachable is copied
 * and promoted by young-generation collections (a dead call's context that is in old space
 * and not yet collected is one of their roots); the shared Observable with its
 * `ReplaySubject` and subscribers was ~3 KB per call (docs/performance.md, "telemetry,
 * third pass").
 * @internal
 * @example
 * ```ts
 * const { shared$, gate } = inputGate(input, request);
 * chunks$.pipe(holdUntilPassed(shared$));
 * toolGuardrailInterceptor({ guardrails: tools, gate });
 * ```
 * @param guardrails The input guardrails (at least one).
 * @param request The request they check.
 * @returns The verdict run once for every subscriber (replayed; a failed run starts again),
 *   and the gate for the interceptor.
 */
export function inputGate(
  guardrails: readonly InputGuardrail[],
  request: ChatRequest,
): { shared$: Observable<Verdict>; gate: InputGate } {
  const gate = new InputGate();
  const shared$ = inputVerdict(guardrails, request).pipe(
    tap((verdict) => gate.settle(verdict)),
    share({
      connector: () => new ReplaySubject<Verdict>(1),
      resetOnError: true,
      resetOnComplete: false,
      resetOnRefCountZero: true,
    }),
  );
  gate.pending = shared$;
  return { shared$, gate };
}

/**
 * The interceptor's view of the input verdict (see {@link inputGate}).
 * @internal
 */
export class InputGate {
  /** The shared run, until the verdict is in. */
  pending: Observable<Verdict> | undefined;
  private verdict: Verdict;

  /** The verdict: the shared run while it is pending, then the verdict alone. */
  get verdict$(): Observable<Verdict> {
    return this.pending ?? of(this.verdict);
  }

  /**
   * The verdict is in: the shared run is no longer reachable from here.
   * @param verdict The first trip, or `undefined` (passed).
   */
  settle(verdict: Verdict): void {
    this.verdict = verdict;
    this.pending = undefined;
  }
}
