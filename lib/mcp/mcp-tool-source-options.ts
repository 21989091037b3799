import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  Rules,
  validateOptions,
  withDefaults,
  type OptionRules,
} from '../core/validate-options.js';
import { InvalidOptionsError } from '../errors/invalid-options-error.js';

/**
 * An MCP client the caller created and connected. The source uses it and never closes it.
 *
 * @example
 * ```ts
 * import { Client } from '@modelcontextprotocol/sdk/client/index.js';
 * import type { McpClientServer } from 'rx-advisors/mcp';
 * const server: McpClientServer = { client: new Client({ name: 'app', version: '1.0.0' }) };
 * ```
 */
export interface McpClientServer {
  readonly client: Client;
}

/**
 * A local MCP server the source starts as a child process and talks to over stdio.
 *
 * @example
 * ```ts
 * import type { McpStdioServer } from 'rx-advisors/mcp';
 * const server: McpStdioServer = { command: 'node', args: ['server.mjs'] };
 * ```
 */
export interface McpStdioServer {
  readonly command: string;
  readonly args?: readonly string[];
  /** The child's environment; default: the SDK's short list of safe inherited variables. */
  readonly env?: Readonly<Record<string, string>>;
  readonly cwd?: string;
  /** Where the child's stderr goes; default `'inherit'`. */
  readonly stderr?: 'inherit' | 'ignore' | 'pipe';
}

/**
 * A remote MCP server over Streamable HTTP (default) or the legacy HTTP+SSE transport.
 *
 * @example
 * ```ts
 * import type { McpHttpServer } from 'rx-advisors/mcp';
 * const server: McpHttpServer = { url: 'https://tools.example.com/mcp', headers: { authorization: 'Bearer …' } };
 * ```
 */
export interface McpHttpServer {
  readonly url: string | URL;
  /** `'streamable-http'` (default) or the deprecated `'sse'` transport. */
  readonly transport?: 'streamable-http' | 'sse';
  /** Headers sent with every request (e.g. authorization). */
  readonly headers?: Readonly<Record<string, string>>;
}

/**
 * Where the tools come from: the caller's connected client, a stdio command, or a URL.
 *
 * @example
 * ```ts
 * import type { McpServer } from 'rx-advisors/mcp';
 * const servers: McpServer[] = [{ command: 'npx', args: ['my-mcp-server'] }, { url: 'http://127.0.0.1:3000/mcp' }];
 * ```
 */
export type McpServer = McpClientServer | McpStdioServer | McpHttpServer;

/**
 * A tool as the server lists it, for `filter`.
 *
 * @example
 * ```ts
 * import type { McpToolInfo } from 'rx-advisors/mcp';
 * const readOnly = (tool: McpToolInfo) => !/^(delete|write)/.test(tool.name);
 * ```
 */
export interface McpToolInfo {
  readonly name: string;
  readonly title?: string | undefined;
  readonly description?: string | undefined;
  readonly inputSchema: Record<string, unknown>;
  readonly outputSchema?: Record<string, unknown> | undefined;
}

/**
 * A progress notification of a running MCP tool call, for `onProgress`.
 *
 * @example
 * ```ts
 * import type { McpProgressEvent } from 'rx-advisors/mcp';
 * const log = ({ toolName, progress, total }: McpProgressEvent) => console.log(toolName, progress, total);
 * ```
 */
export interface McpProgressEvent {
  /** The tool's name as the model sees it (with the prefix). */
  readonly toolName: string;
  readonly toolCallId: string;
  readonly progress: number;
  readonly total?: number | undefined;
  readonly message?: string | undefined;
}

/**
 * Options of `McpToolSource`.
 *
 * @example
 * ```ts
 * import type { McpToolSourceOptions } from 'rx-advisors/mcp';
 * const options: McpToolSourceOptions = {
 *   server: { command: 'node', args: ['server.mjs'] },
 *   prefix: 'files_',
 *   filter: (tool) => !tool.name.startsWith('delete'),
 *   metaKeys: ['userId'],
 * };
 * ```
 */
export interface McpToolSourceOptions {
  /** Where the tools come from. */
  server: McpServer;
  /** Prepended to every tool name the model sees (several servers in one client). Default `''`. */
  prefix?: string;
  /** Keeps only the tools for which it returns `true`. Default: all. */
  filter?: (tool: McpToolInfo) => boolean;
  /** `toolContext` keys whose values travel in each call's `_meta`. Default: none. */
  metaKeys?: readonly string[];
  /** Called on each progress notification of a running call; asking for it enables progress. */
  onProgress?: (event: McpProgressEvent) => void;
  /** Milliseconds to connect and finish the handshake. Default 10 000. */
  connectTimeout?: number;
  /** Milliseconds one MCP request (list, call) may take; progress restarts it. Default 60 000. */
  requestTimeout?: number;
  /** Milliseconds one call may take in total, progress or not. Default 600 000. */
  maxCallTime?: number;
  /** The longest result text (characters) a tool may return. Default 1 000 000. */
  maxResultLength?: number;
  /**
   * `'attach'` (default): images, audio and embedded blob resources of a result reach the
   * model as media of the tool result (docs/mcp.md, "Images, audio and files"); the
   * adapter refuses what its provider cannot take (OpenAI Chat Completions takes none).
   * `'describe'`: they stay short bracketed references in the text.
   */
  resultMedia?: 'attach' | 'describe';
  /** The most decoded bytes of media one result may attach. Default 5 MiB (5 242 880). */
  maxResultMediaBytes?: number;
  /** The most tools one server may list. Default 1 000. */
  maxTools?: number;
  /**
   * The deepest a tool's input schema may nest (objects and arrays). Default 64. A deeper
   * one (a hostile server's) fails the listing with a `McpConnectionError` naming the
   * tool, before the schema is compiled (ajv would overflow the stack).
   */
  maxSchemaDepth?: number;
  /** Re-list the tools when the server sends `notifications/tools/list_changed`. Default `true`. */
  watchListChanged?: boolean;
  /** How the source introduces itself to the server. Default `{ name: 'rx-advisors', version: '0' }`. */
  clientInfo?: { name: string; version: string };
}

/** Every option of `McpToolSource` with its default applied. @internal */
export type ResolvedMcpToolSourceOptions = Required<
  Omit<McpToolSourceOptions, 'filter' | 'onProgress'>
> &
  Pick<McpToolSourceOptions, 'filter' | 'onProgress'>;

/** The defaults of `McpToolSourceOptions`. @internal */
export const MCP_TOOL_SOURCE_DEFAULTS = Object.freeze({
  prefix: '',
  metaKeys: Object.freeze([]),
  connectTimeout: 10_000,
  requestTimeout: 60_000,
  maxCallTime: 600_000,
  maxResultLength: 1_000_000,
  resultMedia: 'attach',
  maxResultMediaBytes: 5 * 1024 * 1024,
  maxTools: 1_000,
  maxSchemaDepth: 64,
  watchListChanged: true,
  clientInfo: Object.freeze({ name: 'rx-advisors', version: '0' }),
});

const RULES: OptionRules<McpToolSourceOptions> = {
  prefix: Rules.custom(
    'letters, digits, "_" or "-"',
    (value) => typeof value === 'string' && /^[a-zA-Z0-9_-]*$/.test(value),
  ),
  filter: Rules.func,
  metaKeys: Rules.custom(
    'an array of toolContext keys',
    (value) => Array.isArray(value) && value.every((key) => typeof key === 'string'),
  ),
  onProgress: Rules.func,
  connectTimeout: Rules.positive,
  requestTimeout: Rules.positive,
  maxCallTime: Rules.positive,
  maxResultLength: Rules.integer(1),
  resultMedia: Rules.custom(
    "'attach' or 'describe'",
    (value) => value === 'attach' || value === 'describe',
  ),
  maxResultMediaBytes: Rules.integer(1),
  maxTools: Rules.integer(1),
  maxSchemaDepth: Rules.integer(1),
  watchListChanged: Rules.boolean,
};

/**
 * Applies defaults and rejects bad values with an `InvalidOptionsError`.
 * @internal
 */
export function resolveMcpToolSourceOptions(
  options: McpToolSourceOptions,
): ResolvedMcpToolSourceOptions {
  const resolved = withDefaults(MCP_TOOL_SOURCE_DEFAULTS, validateOptions(options, RULES));
  if (describeServer(resolved.server) === undefined) {
    throw new InvalidOptionsError({
      option: 'server',
      value: resolved.server,
      expected: '{ client }, { command, args? } or { url, transport? }',
    });
  }
  return resolved;
}

/**
 * A short description of a server for error messages, or `undefined` when it is none.
 * @internal
 */
export function describeServer(server: unknown): string | undefined {
  if (typeof server !== 'object' || server === null) return undefined;
  const s = server as Partial<McpClientServer & McpStdioServer & McpHttpServer>;
  if (typeof s.client === 'object' && s.client !== null) return 'client';
  if (typeof s.command === 'string' && s.command !== '') {
    return `stdio: ${[s.command, ...(s.args ?? [])].join(' ')}`;
  }
  if (typeof s.url === 'string' || s.url instanceof URL) {
    return `${s.transport === 'sse' ? 'sse' : 'http'}: ${withoutSecrets(s.url)}`;
  }
  return undefined;
}

/** The URL without credentials, query or fragment, which may hold keys. */
function withoutSecrets(url: string | URL): string {
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${parsed.pathname}`;
  } catch {
    return '(invalid URL)';
  }
}
