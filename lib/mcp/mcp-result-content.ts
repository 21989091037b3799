import type { MediaPart } from '../core/media-part.js';
import type { ToolResultContent } from '../core/tool-result-content.js';
import { McpToolError } from '../errors/mcp-tool-error.js';

/** Options of {@link mcpResultContent}. @internal */
export interface McpResultContentOptions {
  /** The tool's name on the server. */
  readonly toolName: string;
  /** Whether the tool declared an `outputSchema` (its `structuredContent` is the answer). */
  readonly hasOutputSchema: boolean;
  /** The longest text allowed. */
  readonly maxResultLength: number;
  /** `'attach'`: images, audio and blob resources also become media; `'describe'`: text only. */
  readonly resultMedia: 'attach' | 'describe';
  /** The most decoded bytes of media one result may attach. */
  readonly maxResultMediaBytes: number;
}

/** What a result is being turned into: text lines, and the media attached so far. */
interface Collected {
  readonly media: MediaPart[];
  bytes: number;
}

/**
 * What the model sees for an MCP `tools/call` result: text parts joined with newlines,
 * `structuredContent` as JSON when the tool declares an output schema, images, audio and
 * resources as a short bracketed reference; with `resultMedia: 'attach'`, images, audio
 * and blob resources also ride along as media (the reference stays in the text, where the
 * part was). `isError: true` and results that are not MCP tool results throw a
 * {@link McpToolError}, which the loop reports to the model.
 * @internal
 */
export function mcpResultContent(
  result: unknown,
  options: McpResultContentOptions,
): ToolResultContent {
  const { toolName } = options;
  if (typeof result !== 'object' || result === null) throw malformed(toolName, 'not an object');
  const { content, structuredContent, isError, toolResult } = result as Record<string, unknown>;
  const collected: Collected = { media: [], bytes: 0 };
  let text: string;
  if (content === undefined && toolResult !== undefined) {
    // The 2024-10-07 protocol's result shape, still accepted by the SDK.
    text = JSON.stringify(toolResult) ?? 'null';
  } else if (!Array.isArray(content)) {
    throw malformed(toolName, '"content" is not an array');
  } else if (isError !== true && options.hasOutputSchema && structuredContent !== undefined) {
    text = JSON.stringify(structuredContent);
  } else {
    const attach = isError !== true && options.resultMedia === 'attach';
    text = content
      .map((part) => partText(part, toolName, attach ? collected : undefined))
      .join('\n');
    if (text === '' && structuredContent !== undefined && isError !== true) {
      text = JSON.stringify(structuredContent);
    }
  }
  if (text.length > options.maxResultLength) {
    throw tooLong(
      toolName,
      `returned ${text.length} characters, more than maxResultLength (${options.maxResultLength})`,
    );
  }
  if (isError === true) {
    throw new McpToolError({
      toolName,
      reason: 'tool-error',
      detail: text === '' ? `The MCP tool "${toolName}" reported an error.` : text,
    });
  }
  if (collected.bytes > options.maxResultMediaBytes) {
    throw tooLong(
      toolName,
      `returned ${collected.bytes} bytes of images and files, more than maxResultMediaBytes ` +
        `(${options.maxResultMediaBytes})`,
    );
  }
  return collected.media.length === 0
    ? { content: text }
    : { content: text, media: collected.media };
}

/**
 * One content part as text; anything the model cannot read becomes a short reference.
 * With `collected`, an image, audio or blob resource is also attached as a media part.
 */
function partText(part: unknown, toolName: string, collected: Collected | undefined): string {
  if (typeof part !== 'object' || part === null)
    throw malformed(toolName, 'a content part is not an object');
  const p = part as Record<string, unknown>;
  switch (p['type']) {
    case 'text':
      if (typeof p['text'] !== 'string') throw malformed(toolName, 'a text part has no text');
      return p['text'];
    case 'image':
    case 'audio': {
      const bytes = base64Bytes(p['data']);
      if (collected !== undefined) {
        attach(collected, toolName, p['mimeType'], p['data'], bytes, undefined);
      }
      return `[${p['type']}: ${String(p['mimeType'])}, ${bytes} bytes]`;
    }
    case 'resource': {
      const resource = (p['resource'] ?? {}) as Record<string, unknown>;
      if (collected !== undefined && resource['blob'] !== undefined) {
        const mediaType = resource['mimeType'] ?? 'application/octet-stream';
        const bytes = base64Bytes(resource['blob']);
        attach(collected, toolName, mediaType, resource['blob'], bytes, fileName(resource['uri']));
      }
      return `[resource: ${String(resource['uri'])}${mime(resource['mimeType'])}]`;
    }
    case 'resource_link':
      return `[resource link: ${String(p['name'])} ${String(p['uri'])}${mime(p['mimeType'])}]`;
    default:
      return `[${String(p['type'])} content]`;
  }
}

/** Adds one inline part; the loop checks it further (media type, base64) as adapters do. */
function attach(
  collected: Collected,
  toolName: string,
  mediaType: unknown,
  data: unknown,
  bytes: number,
  filename: string | undefined,
): void {
  if (typeof mediaType !== 'string' || typeof data !== 'string') {
    throw malformed(toolName, 'a binary part has no mimeType or no base64 data');
  }
  collected.bytes += bytes;
  collected.media.push(
    filename === undefined
      ? { mediaType, data: { base64: data } }
      : { mediaType, data: { base64: data }, filename },
  );
}

/** The last path segment of a resource URI, as the file's name (when there is one). */
function fileName(uri: unknown): string | undefined {
  if (typeof uri !== 'string') return undefined;
  const name = uri
    .replace(/[?#].*$/, '')
    .split('/')
    .pop();
  return name === undefined || name === '' ? undefined : name;
}

function mime(value: unknown): string {
  return typeof value === 'string' ? ` (${value})` : '';
}

function base64Bytes(data: unknown): number {
  if (typeof data !== 'string') return 0;
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((data.length * 3) / 4) - padding);
}

function tooLong(toolName: string, what: string): McpToolError {
  return new McpToolError({
    toolName,
    reason: 'too-long',
    detail: `The MCP tool "${toolName}" ${what}. Ask for less, or raise the limit.`,
  });
}

function malformed(toolName: string, what: string): McpToolError {
  return new McpToolError({
    toolName,
    reason: 'malformed',
    detail: `The MCP tool "${toolName}" returned a malformed result (${what}).`,
  });
}
