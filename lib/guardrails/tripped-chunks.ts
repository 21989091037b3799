import type { ChatChunk } from '../core/chat-chunk.js';
import type { GuardrailTrippedError } from '../errors/guardrail-tripped-error.js';

/**
 * What a trip ends a stream with, by option.
 * @internal
 */
export interface TripEnding {
  /** Whether what the answer said is withdrawn. */
  readonly withdraw: boolean;
  /** Whether the `guardrail-tripped` chunk is sent. */
  readonly tripChunk: boolean;
  /** The text sent instead; default the trip's safe message; `''` sends none. */
  readonly replacement?: string | ((trip: GuardrailTrippedError) => string) | undefined;
}

/**
 * The chunks a stream ends with when a guardrail trips: the `guardrail-tripped` chunk, the
 * replacement text (unless empty) and `finish` with reason `content-filter`.
 *
 * @example
 * ```ts
 * // internal: not exported
 * trippedChunks(error, { withdraw: true, tripChunk: true }); // [guardrail-tripped, text-delta, finish]
 * ```
 * @param trip The trip.
 * @param ending Whether to withdraw, and the replacement.
 * @returns The chunks.
 * @internal
 */
export function trippedChunks(trip: GuardrailTrippedError, ending: TripEnding): ChatChunk[] {
  const { replacement } = ending;
  const text =
    replacement === undefined
      ? trip.safeMessage
      : typeof replacement === 'string'
        ? replacement
        : replacement(trip);
  const chunks: ChatChunk[] = [];
  if (ending.tripChunk) {
    chunks.push({
      type: 'guardrail-tripped',
      guardrail: trip.guardrail,
      stage: trip.stage,
      message: trip.safeMessage,
      withdraw: ending.withdraw,
    });
  }
  if (text !== '') chunks.push({ type: 'text-delta', text });
  chunks.push({ type: 'finish', reason: 'content-filter' });
  return chunks;
}
