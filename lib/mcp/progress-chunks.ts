import { finalize, merge, Subject, type Observable } from 'rxjs';
import type { ChatChunk, DataChunk } from '../core/chat-chunk.js';
import type { Tool } from '../core/tool.js';
import { mcpToolCallOf } from './mcp-tool.js';
import type { McpProgressEvent } from './mcp-tool-source-options.js';

/** The `name` of the data chunks that carry MCP progress. */
export const TOOL_PROGRESS = 'tool-progress';

/**
 * One call's MCP tools, each reporting its progress as a transient `data` chunk
 * (`name: 'tool-progress'`, `id`: the tool call id) merged into the call's stream until
 * that stream ends. Tools that are not MCP tools are kept as they are.
 * @internal
 */
export function withProgressChunks(
  tools: readonly Tool[],
  stream: (tools: readonly Tool[]) => Observable<ChatChunk>,
): Observable<ChatChunk> {
  const progress$ = new Subject<DataChunk>();
  const report = (event: McpProgressEvent): void =>
    progress$.next({
      type: 'data',
      name: TOOL_PROGRESS,
      id: event.toolCallId,
      data: { ...event },
      transient: true,
    });
  const reporting = tools.map((tool) => {
    const call = mcpToolCallOf(tool);
    if (call === undefined) return tool;
    return Object.freeze({
      ...tool,
      execute: (args: unknown, context: Parameters<Tool['execute']>[1]) =>
        call(args, context, report),
    });
  });
  // The progress stream ends with the call's stream (complete, error or unsubscribe).
  return merge(progress$, stream(reporting).pipe(finalize(() => progress$.complete())));
}
