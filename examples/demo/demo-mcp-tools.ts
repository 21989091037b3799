// MCP tools for the demo, on only when MCP_SERVERS (JSON) or MCP_CONFIG (a JSON file) is set.
import { readFileSync } from 'node:fs';
import type { Advisor } from '../../lib/index.js';

/** What the demo adds to its client for MCP tools, and how to close the servers. */
export interface DemoMcpTools {
  /** The advisors to add (one `mcpToolsAdvisor` over every server), or none. */
  readonly advisors: Advisor[];
  /** What the demo prints about it, or `undefined` when off. */
  readonly description: string | undefined;
  /** Closes the servers the demo opened (ends stdio child processes). */
  close(): Promise<void>;
}

/** One server of the config: a stdio command or a URL, and an optional name prefix. */
interface DemoMcpServerEntry {
  command?: string;
  args?: string[];
  url?: string;
  transport?: 'streamable-http' | 'sse';
  headers?: Record<string, string>;
  prefix?: string;
}

/**
 * With `MCP_SERVERS` (a JSON array) or `MCP_CONFIG` (the path of a file holding one) set,
 * offers the tools of those MCP servers to every chat; otherwise nothing is loaded.
 * Each entry is `{ "command": "node", "args": ["server.mjs"], "prefix": "my_" }` or
 * `{ "url": "http://127.0.0.1:3001/mcp", "headers": { … }, "prefix": "web_" }`.
 * @example
 * ```ts
 * const mcp = await startDemoMcpTools({ MCP_SERVERS: '[{"url":"http://127.0.0.1:3001/mcp"}]' });
 * ```
 * @param env The environment.
 * @returns The demo's MCP tools.
 */
export async function startDemoMcpTools(env: NodeJS.ProcessEnv): Promise<DemoMcpTools> {
  const text =
    env['MCP_SERVERS'] || (env['MCP_CONFIG'] ? readFileSync(env['MCP_CONFIG'], 'utf8') : '');
  if (text === '') return { advisors: [], description: undefined, close: () => Promise.resolve() };
  const entries = parseEntries(text);
  // Loaded only when asked for: the SDK is an optional peer dependency.
  const { McpToolSource, mcpToolsAdvisor } = await import('../../lib/mcp/index.js');
  const sources = entries.map(
    ({ prefix, command, args, url, transport, headers }) =>
      new McpToolSource({
        server:
          command !== undefined
            ? { command, args: args ?? [], stderr: 'inherit' }
            : { url: url ?? '', transport: transport ?? 'streamable-http', headers: headers ?? {} },
        prefix: prefix ?? '',
      }),
  );
  return {
    advisors: [mcpToolsAdvisor({ source: sources })],
    description: sources.map((source) => source.server).join(', '),
    close: () => Promise.all(sources.map((source) => source.close())).then(() => undefined),
  };
}

function parseEntries(text: string): DemoMcpServerEntry[] {
  const parsed: unknown = JSON.parse(text);
  const ok =
    Array.isArray(parsed) &&
    parsed.every(
      (entry: DemoMcpServerEntry | null) =>
        typeof entry === 'object' &&
        entry !== null &&
        (typeof entry.command === 'string' || typeof entry.url === 'string'),
    );
  if (!ok) {
    throw new Error(
      'MCP_SERVERS / MCP_CONFIG must hold a JSON array of { "command", "args"? } or { "url" } ' +
        'entries, each with an optional "prefix".',
    );
  }
  return parsed as DemoMcpServerEntry[];
}
