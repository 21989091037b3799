// Consumer check of `rx-advisors/mcp` (see root.ts).
import type { Tool } from 'rx-advisors';
import { McpConnectionError, McpToolSource, mcpToolsAdvisor } from 'rx-advisors/mcp';

const source = new McpToolSource({ server: { url: 'http://127.0.0.1:3000/mcp' }, prefix: 'w_' });
export const tools: Promise<readonly Tool[]> = source.listTools();
export const advisorName: string = mcpToolsAdvisor({ source }).name;
export const isConnectionError: boolean = McpConnectionError.isInstance(new Error('x'));
