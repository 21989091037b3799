import { GuardrailTrippedError, type GuardrailStage } from '../errors/guardrail-tripped-error.js';
import type { GuardrailVerdict } from './guardrail.js';

/**
 * The message users see when a guardrail trips without one of its own.
 * @internal
 */
export const DEFAULT_TRIP_MESSAGE = 'Sorry, I cannot help with that.';

/**
 * Whether a verdict stops the call.
 * @example
 * ```ts
 * // internal: not exported
 * isTripped({ tripped: true }); // true
 * ```
 * @param verdict A verdict, `undefined` meaning passed.
 * @returns `true` when it tripped.
 * @internal
 */
export function isTripped<T extends GuardrailVerdict>(
  verdict: T | undefined,
): verdict is T & { readonly tripped: true } {
  return verdict !== undefined && verdict !== null && verdict.tripped;
}

/**
 * The error a tripped verdict stops the stream with.
 * @example
 * ```ts
 * // internal: not exported
 * throw tripError('no-secrets', 'output', { tripped: true, reason: 'an API key' });
 * ```
 * @param guardrail The guardrail's name.
 * @param stage Where it tripped.
 * @param verdict Its verdict.
 * @returns The error.
 * @internal
 */
export function tripError(
  guardrail: string,
  stage: GuardrailStage,
  verdict: GuardrailVerdict,
): GuardrailTrippedError {
  return new GuardrailTrippedError({
    guardrail,
    stage,
    safeMessage: verdict.message ?? DEFAULT_TRIP_MESSAGE,
    ...(verdict.reason === undefined ? {} : { reason: verdict.reason }),
  });
}
