import type { GuardrailTrippedChunk } from '../core/chat-chunk.js';

/**
 * The UI message stream's part for a `guardrail-tripped` chunk: `data-guardrail-tripped`
 * with the guardrail's name, stage, safe message and whether the text before it is
 * withdrawn. The protocol has no way to take back text parts, so a page drops them itself
 * ({@link visibleUiParts}).
 * @internal
 */
export function guardrailTrippedPart(chunk: GuardrailTrippedChunk): Record<string, unknown> {
  const { guardrail, stage, message, withdraw } = chunk;
  return { type: 'data-guardrail-tripped', data: { guardrail, stage, message, withdraw } };
}

/**
 * The parts of a UI message (as `useChat` holds it) that a page should show: a
 * `data-guardrail-tripped` part that withdraws takes back the text and reasoning parts
 * before it (what the answer said before a guardrail stopped it); everything else stays.
 * Returns the same array when nothing was withdrawn.
 *
 * @example
 * ```ts
 * import { visibleUiParts } from 'rx-advisors/sse';
 * const parts = visibleUiParts([
 *   { type: 'text', text: 'The code name is ze' },
 *   { type: 'data-guardrail-tripped', data: { guardrail: 'code-names', stage: 'output', message: 'Withheld.', withdraw: true } },
 *   { type: 'text', text: 'Withheld.' },
 * ]);
 * parts.length; // 2: the withdrawn text is gone
 * ```
 * @param parts The message's parts.
 * @returns The parts to render.
 */
export function visibleUiParts<P extends { readonly type: string; readonly data?: unknown }>(
  parts: readonly P[],
): readonly P[] {
  let last = -1;
  for (let i = parts.length - 1; i >= 0 && last === -1; i--) {
    if (isWithdrawal(parts[i])) last = i;
  }
  if (last === -1) return parts;
  return parts.filter(
    (part, index) => index >= last || (part.type !== 'text' && part.type !== 'reasoning'),
  );
}

function isWithdrawal(part: { readonly type: string; readonly data?: unknown }): boolean {
  return (
    part.type === 'data-guardrail-tripped' &&
    typeof part.data === 'object' &&
    part.data !== null &&
    (part.data as { withdraw?: unknown }).withdraw === true
  );
}
