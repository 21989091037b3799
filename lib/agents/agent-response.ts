import type { ChatChunk } from '../core/chat-chunk.js';
import type { ChatResponse } from '../core/chat-response.js';
import { ResponseAssembler } from '../core/response-assembler.js';

/**
 * A nested agent's response, folded from its chunks as they pass through `agentTool`. A
 * `ResponseAssembler` with one difference in cost, none in result: a run of text deltas is
 * kept as the list of its pieces and handed to the assembler as one delta when another
 * chunk comes (or at `build`), so a retry or a withdrawn answer still clears what came
 * before it, in order. The assembler's `text += delta` makes one string per chunk that
 * lives until the run ends; over a long answer those young strings survive every
 * scavenge and were most of the nested path's GC time (docs/agents.md, "Cost per nested
 * chunk"); a list costs a slot per delta.
 * @internal
 * @example
 * ```ts
 * const response = new AgentResponse();
 * response.add({ type: 'text-delta', text: 'Hel' });
 * response.add({ type: 'text-delta', text: 'lo' });
 * response.build().text; // 'Hello'
 * ```
 */
export class AgentResponse {
  private readonly assembler = new ResponseAssembler();
  private readonly pieces: string[] = [];

  /**
   * Folds one chunk in.
   * @param chunk The next chunk of the nested agent's stream.
   */
  add(chunk: ChatChunk): void {
    if (chunk.type === 'text-delta') {
      this.pieces.push(chunk.text);
      return;
    }
    this.flush();
    this.assembler.add(chunk);
  }

  /**
   * The response so far, as `ResponseAssembler.build` makes it.
   * @returns A new `ChatResponse`.
   */
  build(): ChatResponse {
    this.flush();
    return this.assembler.build();
  }

  /** The pending text deltas, to the assembler as one. */
  private flush(): void {
    const { pieces } = this;
    if (pieces.length === 0) return;
    const text = pieces.length === 1 ? pieces[0] : pieces.join('');
    pieces.length = 0;
    this.assembler.add({ type: 'text-delta', text });
  }
}
