import { McpToolError } from '../errors/mcp-tool-error.js';

/** Options of {@link mcpResultText}. @internal */
export interface McpResultTextOptions {
  /** The tool's name on the server. */
  readonly toolName: string;
  /** Whether the tool declared an `outputSchema` (its `structuredContent` is the answer). */
  readonly hasOutputSchema: boolean;
  /** The longest text allowed. */
  readonly maxResultLength: number;
}

/**
 * The text the model sees for an MCP `tools/call` result: text parts joined with newlines,
 * `structuredContent` as JSON when the tool declares an output schema, images, audio and
 * resources as a short bracketed reference. `isError: true` and results that are not MCP
 * tool results throw a {@link McpToolError}, which the loop reports to the model.
 * @internal
 */
export function mcpResultText(result: unknown, options: McpResultTextOptions): string {
  const { toolName } = options;
  if (typeof result !== 'object' || result === null) throw malformed(toolName, 'not an object');
  const { content, structuredContent, isError, toolResult } = result as Record<string, unknown>;
  let text: string;
  if (content === undefined && toolResult !== undefined) {
    // The 2024-10-07 protocol's result shape, still accepted by the SDK.
    text = JSON.stringify(toolResult) ?? 'null';
  } else if (!Array.isArray(content)) {
    throw malformed(toolName, '"content" is not an array');
  } else if (isError !== true && options.hasOutputSchema && structuredContent !== undefined) {
    text = JSON.stringify(structuredContent);
  } else {
    text = content.map((part) => partText(part, toolName)).join('\n');
    if (text === '' && structuredContent !== undefined && isError !== true) {
      text = JSON.stringify(structuredContent);
    }
  }
  if (text.length > options.maxResultLength) {
    throw new McpToolError({
      toolName,
      reason: 'too-long',
      detail:
        `The MCP tool "${toolName}" returned ${text.length} characters, more than ` +
        `maxResultLength (${options.maxResultLength}). Ask for less, or raise maxResultLength.`,
    });
  }
  if (isError === true) {
    throw new McpToolError({
      toolName,
      reason: 'tool-error',
      detail: text === '' ? `The MCP tool "${toolName}" reported an error.` : text,
    });
  }
  return text;
}

/** One content part as text; anything the model cannot read becomes a short reference. */
function partText(part: unknown, toolName: string): string {
  if (typeof part !== 'object' || part === null)
    throw malformed(toolName, 'a content part is not an object');
  const p = part as Record<string, unknown>;
  switch (p['type']) {
    case 'text':
      if (typeof p['text'] !== 'string') throw malformed(toolName, 'a text part has no text');
      return p['text'];
    case 'image':
    case 'audio':
      return `[${p['type']}: ${String(p['mimeType'])}, ${base64Bytes(p['data'])} bytes]`;
    case 'resource': {
      const resource = (p['resource'] ?? {}) as Record<string, unknown>;
      return `[resource: ${String(resource['uri'])}${mime(resource['mimeType'])}]`;
    }
    case 'resource_link':
      return `[resource link: ${String(p['name'])} ${String(p['uri'])}${mime(p['mimeType'])}]`;
    default:
      return `[${String(p['type'])} content]`;
  }
}

function mime(value: unknown): string {
  return typeof value === 'string' ? ` (${value})` : '';
}

function base64Bytes(data: unknown): number {
  if (typeof data !== 'string') return 0;
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((data.length * 3) / 4) - padding);
}

function malformed(toolName: string, what: string): McpToolError {
  return new McpToolError({
    toolName,
    reason: 'malformed',
    detail: `The MCP tool "${toolName}" returned a malformed result (${what}).`,
  });
}
