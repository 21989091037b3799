// rx-advisors/mcp: tools from Model Context Protocol servers in the tool loop.
// Explicit re-exports, grouped by role. Needs the optional peer @modelcontextprotocol/sdk.

// The tool source and the advisor
export { McpToolSource } from './mcp-tool-source.js';
export { mcpToolsAdvisor, type McpToolsAdvisorOptions } from './mcp-tools-advisor.js';
export {
  reindexOnListChanged,
  type ReindexOnListChangedOptions,
} from './reindex-on-list-changed.js';

// Options
export type {
  McpClientServer,
  McpHttpServer,
  McpProgressEvent,
  McpServer,
  McpStdioServer,
  McpToolInfo,
  McpToolSourceOptions,
} from './mcp-tool-source-options.js';

// Errors
export { McpConnectionError } from '../errors/mcp-connection-error.js';
export { McpToolError } from '../errors/mcp-tool-error.js';
