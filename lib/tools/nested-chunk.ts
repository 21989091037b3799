import type { ChatChunk, ToolResultChunk } from '../core/chat-chunk.js';
import type { ToolCall } from '../core/message.js';

/**
 * A nested agent's chunk as a value of an Observable tool (what `agentTool` emits per chunk
 * of its agent): the path of agents and the chunk. The Observable-tool path sends it on as
 * it is, as the `agentChunk` of a preliminary `tool-result` (no result converter, no
 * wrapper: one object per nested chunk besides the preliminary chunk), and never makes it
 * the tool's result. Two own fields: a plain object over the wire.
 * @internal
 * @example
 * ```ts
 * const nested = new NestedChunk(['research'], { type: 'text-delta', text: 'Found' });
 * ```
 */
export class NestedChunk {
  // Declared, not defined: the compiled class gets no field initialisers, so a
  // `NestedChunk` (one per nested chunk) is two stores, not four (define, then assign).
  /** The agents the chunk comes through, outermost first. */
  declare readonly agentPath: readonly string[];
  /** The nested agent's chunk. */
  declare readonly chunk: ChatChunk;

  /**
   * @param agentPath The agents the chunk comes through, outermost first.
   * @param chunk The nested agent's chunk.
   */
  constructor(agentPath: readonly string[], chunk: ChatChunk) {
    this.agentPath = agentPath;
    this.chunk = chunk;
  }
}

/**
 * A nested chunk as the preliminary `tool-result` of the call that runs its agent (the
 * fields in the order `preliminaryResult` writes them: one shape for every preliminary).
 * @internal
 * @example
 * ```ts
 * subscriber.next(nestedResult(call, nested));
 * ```
 * @param call The agent tool's call.
 * @param nested The nested chunk.
 * @returns The preliminary chunk.
 */
export function nestedResult(call: ToolCall, nested: NestedChunk): ToolResultChunk {
  return {
    type: 'tool-result',
    id: call.id,
    name: call.name,
    content: '',
    preliminary: true,
    agentChunk: nested,
  };
}
