import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Tool, ToolContext } from '../core/tool.js';
import type { ToolResultContent } from '../core/tool-result-content.js';
import { withoutMetaSchema } from '../schema/schema-validator.js';
import { tool } from '../tools/tool-fn.js';
import type { McpConnection } from './mcp-connection.js';
import { mcpResultContent } from './mcp-result-content.js';
import type {
  McpProgressEvent,
  McpToolInfo,
  ResolvedMcpToolSourceOptions,
} from './mcp-tool-source-options.js';

/** Runs an MCP tool with one more progress listener (the advisor's chunk sink). @internal */
export type McpToolCall = (
  args: unknown,
  context: ToolContext,
  onProgress: (event: McpProgressEvent) => void,
) => Promise<ToolResultContent>;

const calls = new WeakMap<Tool, McpToolCall>();

/**
 * The call behind a tool made by {@link createMcpTool}, or `undefined` for any other tool.
 * @internal
 */
export function mcpToolCallOf(tool: Tool): McpToolCall | undefined {
  return calls.get(tool);
}

/**
 * A `Tool` that calls one MCP server tool: the server's input schema validates the
 * arguments before the request is sent, the context's signal cancels the request
 * (the SDK then sends `notifications/cancelled`), the marked context values travel in
 * `_meta`, and the result becomes text and media (see `mcpResultContent`).
 * @internal
 */
export function createMcpTool(
  info: McpToolInfo,
  connection: McpConnection,
  options: ResolvedMcpToolSourceOptions,
): Tool {
  const name = options.prefix + info.name;
  const hasOutputSchema = info.outputSchema !== undefined;
  const call = async (
    args: unknown,
    context: ToolContext,
    onProgress?: (event: McpProgressEvent) => void,
  ): Promise<ToolResultContent> => {
    const client = await connection.client();
    const listeners = [options.onProgress, onProgress].filter((f) => f !== undefined);
    const notify =
      listeners.length === 0
        ? undefined
        : (event: McpProgressEvent) => listeners.forEach((listener) => listener(event));
    const result = await callTool(client, info.name, name, args, context, options, notify).catch(
      (error: unknown) => {
        // The server dropped the HTTP session (restarted): the next call starts a new one.
        if (error instanceof StreamableHTTPError && error.code === 404) connection.drop(client);
        throw error;
      },
    );
    return mcpResultContent(result, {
      toolName: info.name,
      hasOutputSchema,
      maxResultLength: options.maxResultLength,
      resultMedia: options.resultMedia,
      maxResultMediaBytes: options.maxResultMediaBytes,
    });
  };
  const made = tool<unknown, ToolResultContent>({
    name,
    description: info.description ?? info.title ?? '',
    parameters: withoutMetaSchema(info.inputSchema) as never,
    execute: (args: unknown, context: ToolContext) => call(args, context),
    // The result is already text and media (`mcpResultContent`).
    resultConverter: (content) => content,
  });
  calls.set(made, call);
  return made;
}

async function callTool(
  client: Client,
  serverName: string,
  name: string,
  args: unknown,
  context: ToolContext,
  options: ResolvedMcpToolSourceOptions,
  onProgress: ((event: McpProgressEvent) => void) | undefined,
): Promise<unknown> {
  const meta = metaOf(context.values, options.metaKeys);
  let progressError: { error: unknown } | undefined;
  const result = await client.callTool(
    {
      name: serverName,
      arguments: (args ?? {}) as Record<string, unknown>,
      ...(meta === undefined ? {} : { _meta: meta }),
    },
    undefined,
    {
      signal: context.signal,
      timeout: options.requestTimeout,
      maxTotalTimeout: options.maxCallTime,
      resetTimeoutOnProgress: true,
      ...(onProgress === undefined
        ? {}
        : {
            onprogress: ({ progress, total, message }) => {
              try {
                onProgress({
                  toolName: name,
                  toolCallId: context.toolCallId,
                  progress,
                  total,
                  message,
                });
              } catch (error) {
                // Thrown inside the SDK's notification handler it would be lost: fail the call.
                progressError ??= { error };
              }
            },
          }),
    },
  );
  if (progressError !== undefined) throw progressError.error;
  return result;
}

/** The marked toolContext values, or `undefined` when none is set. */
function metaOf(
  values: Readonly<Record<string, unknown>>,
  keys: readonly string[],
): Record<string, unknown> | undefined {
  let meta: Record<string, unknown> | undefined;
  for (const key of keys) {
    if (values[key] !== undefined) (meta ??= {})[key] = values[key];
  }
  return meta;
}
