import type { ChatChunk } from '../core/chat-chunk.js';

/**
 * A chunk of a nested agent's stream, as it reaches the stream of the call above: which
 * agent sent it (the path of agents from the top-level call, outermost first) and the
 * chunk itself. In the parent's stream it travels as a preliminary `tool-result` of the
 * agent tool's call (with the parent loop's `emitToolEvents`), in its `agentChunk` field,
 * as it is (no text encoding); read it back with {@link agentChunkOf}.
 * @example
 * ```ts
 * import type { AgentChunk } from 'rx-advisors';
 * const nested: AgentChunk = { agentPath: ['research'], chunk: { type: 'text-delta', text: 'Found' } };
 * ```
 */
export interface AgentChunk {
  /** The agents the chunk comes through, outermost first; the last one sent it. */
  readonly agentPath: readonly string[];
  /** The nested agent's chunk. */
  readonly chunk: ChatChunk;
}

/**
 * The nested agent's chunk a chunk of the parent's stream carries: a preliminary
 * `tool-result` sent by an agent tool (`agentTool`); `undefined` for any other chunk. A
 * grandchild's chunk comes out whole, with its full path: the stream of the top-level
 * call is flat.
 *
 * @example
 * ```ts partial
 * import { agentChunkOf } from 'rx-advisors';
 *
 * client.prompt('Plan a trip').stream().chunks().subscribe((chunk) => {
 *   const nested = agentChunkOf(chunk);
 *   if (nested?.chunk.type === 'text-delta') console.log(nested.agentPath.join('/'), nested.chunk.text);
 * });
 * ```
 * @param chunk Any chunk.
 * @returns The agent chunk, or `undefined`.
 */
export function agentChunkOf(chunk: ChatChunk): AgentChunk | undefined {
  return chunk.type === 'tool-result' && chunk.preliminary === true ? chunk.agentChunk : undefined;
}
