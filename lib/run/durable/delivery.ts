import type { ChatChunk } from '../../core/chat-chunk.js';

/**
 * How far into a run's outbound stream a chunk goes, in a unit that survives re-chunking:
 * a replayed round sends a recorded text as one delta where the model sent many, so text
 * counts by its UTF-16 code units; a chunk a replay may send differently or not at all
 * (the model's own metadata and usage, tool-call fragments, reasoning blocks, progress of
 * a tool, an approval request answered from the journal) counts 0; any other chunk 1.
 * @internal
 */
export function deliveryUnits(chunk: ChatChunk): number {
  switch (chunk.type) {
    case 'text-delta':
    case 'reasoning-delta':
      return chunk.text.length;
    case 'tool-result':
      return chunk.preliminary === true ? 0 : 1;
    case 'tool-call':
    case 'round-start':
    case 'round-end':
    case 'finish':
    case 'retry':
    case 'source':
    case 'data':
      return 1;
    default:
      return 0;
  }
}

/**
 * The position of one subscription in its run's outbound stream, and what of it the
 * subscriber still has to see: everything from `from` on (a text that straddles `from`
 * is cut; a chunk of no units exactly at `from` is sent: at least once, never lost).
 * @internal
 */
export class Delivery {
  /** Units that went past (sent now, or delivered to an earlier subscriber). */
  position = 0;

  /** @param from The units the subscriber has seen already. */
  constructor(readonly from: number) {}

  /**
   * Moves past one chunk.
   * @param chunk The next outbound chunk.
   * @returns What to send of it: the chunk, the unseen end of its text, or `undefined`.
   */
  pass(chunk: ChatChunk): ChatChunk | undefined {
    const start = this.position;
    const units = deliveryUnits(chunk);
    this.position = start + units;
    if (start >= this.from) return chunk;
    if (this.position <= this.from) return undefined;
    // Only text has more than one unit: send the part the subscriber has not seen.
    if (chunk.type === 'text-delta' || chunk.type === 'reasoning-delta') {
      return { ...chunk, text: chunk.text.slice(this.from - start) };
    }
    return chunk;
  }
}
