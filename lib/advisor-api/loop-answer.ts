import type { ChatRequest } from '../core/chat-request.js';
import type { Advisor } from './advisor.js';

/**
 * The context key of a {@link LoopAnswer} (set by `agentTool` on its nested call).
 * @internal
 */
export const LOOP_ANSWER_KEY = 'rx-advisors.agent.loop-answer';

/**
 * The text a nested call's stream adds up to, taken from its tool loop instead of kept a
 * second time by the `agentTool` reading it (docs/agents.md, "The answer from the child's
 * loop"). One per subscription of the nested call, in its `request.context`. The first chain
 * run with that context (the call's own) records its head advisor; a tool loop that is that
 * head (nothing outside it can change a chunk) and sends every text delta as it comes
 * claims the slot and keeps `text` up to date at each round's end: the text a
 * `ResponseAssembler` folding the loop's outbound chunks would hold. Any other chain leaves
 * it unclaimed, and the reader folds the chunks itself.
 * @internal
 * @example
 * ```ts
 * const slot = new LoopAnswer();
 * const chunks$ = client.prompt('Hi').advisorParams({ [LOOP_ANSWER_KEY]: slot }).stream().chunks();
 * // at completion: slot.claimed ? slot.text : what the chunks add up to
 * ```
 */
export class LoopAnswer {
  /** Whether a chain has run with this call's context (its head is `head`). */
  opened = false;
  /** The head advisor of the first chain run with this context (`undefined`: the model). */
  head: Advisor | undefined;
  /** Whether the head is a tool loop that keeps `text`. */
  claimed = false;
  /** The text of the loop's outbound chunks so far (with `claimed`). */
  text = '';

  /**
   * A round's text, sent as it came: after the text so far, or instead of it when the round
   * sent a `retry` or a withdrawn answer (a reader of the stream clears what came before).
   * @param text The round's assembled text (since its last clearing chunk).
   * @param cleared Whether the round sent a clearing chunk.
   */
  addRound(text: string, cleared: boolean): void {
    this.text = cleared ? text : this.text + text;
  }
}

/**
 * Records the head advisor of a chain run at its first link, once per context that carries
 * a {@link LoopAnswer}: the call's own chain is the first to run with it.
 * @internal
 * @example
 * ```ts
 * noteChainHead(request, advisors[0]);
 * ```
 * @param request The request the head runs with.
 * @param head The chain's first advisor (`undefined` when it has none).
 */
export function noteChainHead(request: ChatRequest, head: Advisor | undefined): void {
  const { context } = request;
  if (context.size === 0) return;
  const slot = context.get(LOOP_ANSWER_KEY);
  if (!(slot instanceof LoopAnswer) || slot.opened) return;
  slot.opened = true;
  slot.head = head;
}

/**
 * The slot a tool loop may claim: the call's {@link LoopAnswer} when `loop` is the head of the
 * call's chain and no loop has claimed it yet.
 * @internal
 * @example
 * ```ts
 * const slot = claimLoopAnswer(request, this);
 * ```
 * @param request The loop's request.
 * @param loop The loop advisor.
 * @returns The claimed slot, or `undefined`.
 */
export function claimLoopAnswer(request: ChatRequest, loop: Advisor): LoopAnswer | undefined {
  const { context } = request;
  if (context.size === 0) return undefined;
  const slot = context.get(LOOP_ANSWER_KEY);
  if (!(slot instanceof LoopAnswer) || slot.claimed || !slot.opened || slot.head !== loop) {
    return undefined;
  }
  slot.claimed = true;
  return slot;
}
