import type { GuardrailStage } from '../errors/guardrail-tripped-error.js';

/**
 * A guardrail stopped the answer (see docs/guardrails.md): the stream ends after it (a
 * replacement text, then `finish` with reason `content-filter`). With `withdraw`, what the
 * answer said before this chunk is taken back: `aggregate()` drops it (as on a `retry`), the
 * UI protocol marks it withdrawn. `message` is safe to show a user; the guardrail's reason
 * stays on the server.
 * @example
 * ```ts
 * import type { GuardrailTrippedChunk } from 'rx-advisors';
 * const chunk: GuardrailTrippedChunk = {
 *   type: 'guardrail-tripped',
 *   guardrail: 'no-secrets',
 *   stage: 'output',
 *   message: 'The answer was withheld.',
 *   withdraw: true,
 * };
 * ```
 */
export interface GuardrailTrippedChunk {
  type: 'guardrail-tripped';
  /** The name of the guardrail that tripped. */
  guardrail: string;
  /** Where it tripped: the request, the answer, or a tool call. */
  stage: GuardrailStage;
  /** A message safe to show the user (no internals). */
  message: string;
  /** Whether what the answer said before this chunk is withdrawn. */
  withdraw: boolean;
}
