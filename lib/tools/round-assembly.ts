import type { ChatChunk, TextDeltaChunk, ToolCallDeltaChunk } from '../core/chat-chunk.js';
import { ResponseAssembler } from '../core/response-assembler.js';
import type { PreamblePolicy } from './tool-calling-advisor-options.js';

/**
 * One tool-loop round on its way through: folds every raw chunk into the round's
 * response and decides which chunks go outbound. `forward` is a `filter` predicate made
 * once per round; it allocates nothing per chunk.
 * @internal
 */
export class RoundAssembly {
  readonly assembler = new ResponseAssembler();
  /** Text held back under the `drop` preamble policy, sent only if the round is the last. */
  readonly held: TextDeltaChunk[] | undefined;
  /** Whether the model sent complete `tool-call` chunks (else they are built from deltas). */
  sawToolCall = false;
  /**
   * Whether the round sent a chunk that clears the text before it (a `retry`, a withdrawn
   * answer): a reader of the outbound stream keeps only the text after it.
   */
  cleared = false;
  /** The ids of the `tool-call` chunks sent on (with `emitToolEvents`). */
  private forwardedIds: Set<string> | undefined;
  /** Per `tool-call-delta` index, whether its fragments go on (with `emitToolEvents`). */
  private deltaIndexes: Map<number, boolean> | undefined;
  /** The ids the round's deltas opened. */
  private deltaIds: Set<string> | undefined;

  constructor(
    private readonly emitToolEvents: boolean,
    preamble: PreamblePolicy,
  ) {
    this.held = preamble === 'drop' ? [] : undefined;
  }

  readonly forward = (chunk: ChatChunk): boolean => {
    this.assembler.add(chunk);
    switch (chunk.type) {
      case 'text-delta':
        if (this.held === undefined) return true;
        this.held.push(chunk);
        return false;
      case 'tool-call': {
        this.sawToolCall = true;
        if (!this.emitToolEvents) return false;
        // A repeated id goes out at the round's end, under the new id the loop gives it.
        const ids = (this.forwardedIds ??= new Set());
        if (ids.has(chunk.id)) return false;
        ids.add(chunk.id);
        return true;
      }
      case 'tool-call-delta':
        return this.emitToolEvents && this.forwardDelta(chunk);
      case 'retry':
        this.cleared = true;
        return true;
      case 'guardrail-tripped':
        if (chunk.withdraw) this.cleared = true;
        return true;
      case 'usage':
      case 'metadata':
      case 'finish':
        // Per-round bookkeeping: the loop emits its own totals at the end.
        return false;
      default:
        return true;
    }
  };

  /**
   * Tool input as it is typed (with `emitToolEvents`): an index's fragments go on from the
   * one that names its id. An index under an id an earlier index of the round took is held
   * back: its call goes out whole at the round's end, under the new id the loop gives it.
   */
  private forwardDelta(chunk: ToolCallDeltaChunk): boolean {
    const indexes = (this.deltaIndexes ??= new Map());
    if (chunk.id !== undefined && !indexes.has(chunk.index)) {
      const ids = (this.deltaIds ??= new Set());
      indexes.set(chunk.index, !ids.has(chunk.id));
      ids.add(chunk.id);
    }
    return indexes.get(chunk.index) === true;
  }
}
