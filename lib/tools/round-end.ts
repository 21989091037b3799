import { from, isObservable, type Observable } from 'rxjs';
import type { ChatChunk, FinishReason } from '../core/chat-chunk.js';
import type { ChatRequest } from '../core/chat-request.js';

/**
 * Opens the next round of the tool loop: the last value of a round, consumed by
 * `expandRounds` (never emitted).
 * @internal
 * @example
 * ```ts
 * return [new LoopStep(request.withMessages(messages))];
 * ```
 */
export class LoopStep {
  /** @param request The next round's request. */
  constructor(readonly request: ChatRequest) {}
}

/**
 * A value of a round of the tool loop: an outbound chunk, or the step that opens the next
 * round.
 * @internal
 * @example
 * ```ts
 * const items: LoopItem[] = [{ type: 'text-delta', text: 'hi' }];
 * ```
 */
export type LoopItem = ChatChunk | LoopStep;

/**
 * What a round's end decides: values now (no subscription), or an Observable of them.
 * @internal
 * @example
 * ```ts
 * const end: RoundEnd = [new LoopStep(request)];
 * ```
 */
export type RoundEnd = LoopItem[] | Observable<LoopItem>;

/**
 * Whether a round's value is the step that opens the next round (the `isStep` of
 * `expandRounds`).
 * @internal
 * @example
 * ```ts
 * round$.pipe(expandRounds(isLoopStep, (step) => nextRound$(step.request)));
 * ```
 * @param item A value of a round.
 * @returns `true` for a {@link LoopStep}.
 */
export const isLoopStep = (item: LoopItem): item is LoopStep => item instanceof LoopStep;

/**
 * A round's end as an Observable (an array goes through `from`).
 * @internal
 * @example
 * ```ts
 * defer(() => asObservable(endRound()));
 * ```
 * @param end What the round's end decided.
 * @returns Its values, as an Observable.
 */
export const asObservable = (end: RoundEnd): Observable<LoopItem> =>
  isObservable(end) ? end : from(end);

/**
 * The `round-end` chunk of a round (with `emitToolEvents`).
 * @internal
 * @example
 * ```ts
 * roundEndChunk(2, 'tool-calls'); // { type: 'round-end', round: 2, finishReason: 'tool-calls' }
 * ```
 * @param round The round, counting from 1.
 * @param finishReason The round's finish reason.
 * @returns The chunk.
 */
export const roundEndChunk = (round: number, finishReason: FinishReason): ChatChunk => ({
  type: 'round-end',
  round,
  finishReason,
});
