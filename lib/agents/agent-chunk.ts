import type { ChatChunk, ToolResultChunk } from '../core/chat-chunk.js';

/**
 * A chunk of a nested agent's stream, as it reaches the stream of the call above: which
 * agent sent it (the path of agents from the top-level call, outermost first) and the
 * chunk itself. In the parent's stream it travels as a preliminary `tool-result` of the
 * agent tool's call (with the parent loop's `emitToolEvents`); read it back with
 * {@link agentChunkOf}.
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

/** Every encoded agent chunk starts so (the key order of {@link encodeAgentChunk}). */
const PREFIX = '{"agentPath":[';

/**
 * An agent chunk as the text of a preliminary tool result.
 * @internal
 */
export function encodeAgentChunk(agentPath: readonly string[], chunk: ChatChunk): string {
  return JSON.stringify({ agentPath, chunk });
}

/**
 * Whether a preliminary tool result's text is an encoded agent chunk (of an agent nested
 * further down: it is forwarded as it is, its path being complete already).
 * @internal
 */
export function isEncodedAgentChunk(content: string): boolean {
  return content.startsWith(PREFIX);
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
  if (chunk.type !== 'tool-result' || chunk.preliminary !== true) return undefined;
  return decode(chunk);
}

function decode(chunk: ToolResultChunk): AgentChunk | undefined {
  if (!isEncodedAgentChunk(chunk.content)) return undefined;
  try {
    const parsed = JSON.parse(chunk.content) as Partial<AgentChunk>;
    const { agentPath, chunk: inner } = parsed;
    if (!Array.isArray(agentPath) || typeof inner !== 'object' || inner === null) {
      return undefined;
    }
    return { agentPath, chunk: inner };
  } catch {
    return undefined;
  }
}
