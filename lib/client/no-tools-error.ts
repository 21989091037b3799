import type { ToolCallChunk } from '../core/chat-chunk.js';
import { ToolNotFoundError } from '../errors/tool-not-found-error.js';

/**
 * The error of a call that offers no tools when the model calls one anyway (see
 * `noToolsGuard`).
 * @internal
 * @example
 * ```ts
 * subscriber.error(noToolsError(chunk));
 * ```
 * @param chunk The model's complete tool call.
 * @returns A `ToolNotFoundError` naming the tool and how to offer tools.
 */
export function noToolsError(chunk: ToolCallChunk): ToolNotFoundError {
  return new ToolNotFoundError({
    toolName: chunk.name,
    available: [],
    hint:
      'The call registers no tools: offer it with defaultTools() or tools(), or set ' +
      'advisorParams({ toolCallingAdvisorAutoRegister: false }) to handle tool calls yourself.',
  });
}
