import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { Subject, type Observable } from 'rxjs';
import type { Tool } from '../core/tool.js';
import { McpConnectionError } from '../errors/mcp-connection-error.js';
import { schemaDepth } from './schema-depth.js';
import { uniqueTools } from '../tools/unique-tools.js';
import { McpConnection } from './mcp-connection.js';
import { createMcpTool } from './mcp-tool.js';
import {
  resolveMcpToolSourceOptions,
  type McpToolInfo,
  type McpToolSourceOptions,
  type ResolvedMcpToolSourceOptions,
} from './mcp-tool-source-options.js';
import { errorMessageOf } from '../errors/error-details.js';

/**
 * The tools of one MCP server, as ordinary rx-advisors tools. The server is connected on
 * the first `listTools()` (concurrent callers share one connection), the list is cached
 * and listed again after the server sends `notifications/tools/list_changed`. Use the
 * tools with `defaultTools(...)` or `prompt().tools(...)`, or let `mcpToolsAdvisor` list
 * them for each call. A source that opened its server (stdio, URL) closes it in `close()`;
 * a `{ client }` the caller passed stays the caller's and is never closed.
 *
 * @example
 * ```ts
 * import { ChatClient } from 'rx-advisors';
 * import { McpToolSource } from 'rx-advisors/mcp';
 * import { MockChatModel } from 'rx-advisors/testing';
 *
 * const files = new McpToolSource({ server: { command: 'node', args: ['files-server.mjs'] }, prefix: 'files_' });
 * const client = ChatClient.builder(MockChatModel.script([{ text: 'hi' }]))
 *   .defaultTools(...(await files.listTools()))
 *   .build();
 * // … when the application stops:
 * await files.close();
 * ```
 */
export class McpToolSource {
  private readonly options: ResolvedMcpToolSourceOptions;
  private readonly connection: McpConnection;
  private listing: Promise<readonly Tool[]> | undefined;
  /** Bumped by every change notice, so a listing that raced with one is not cached. */
  private version = 0;
  private readonly changes = new Subject<void>();
  /**
   * Emits when the cached tools go stale: `list_changed`, a reconnection, `refresh()`
   * (`reindexOnListChanged` invalidates a tool index on it). Hot; never errors.
   */
  readonly toolsChanged$: Observable<void> = this.changes.asObservable();

  /** @param options The server and how its tools are offered. */
  constructor(options: McpToolSourceOptions) {
    this.options = resolveMcpToolSourceOptions(options);
    this.connection = new McpConnection(this.options, () => this.refresh());
  }

  /** The server, as a short description (`stdio: node server.mjs`, `http: https://…/mcp`). */
  get server(): string {
    return this.connection.label;
  }

  /**
   * The server's tools (filtered and prefixed), listed on first use and cached until the
   * server reports a change. Rejects with a `McpConnectionError` when the server cannot be
   * reached, and with an `InvalidOptionsError` when a tool name is not one a model accepts
   * or two tools share a name.
   * @returns The tools, in the server's order.
   */
  listTools(): Promise<readonly Tool[]> {
    if (this.listing !== undefined) return this.listing;
    const version = this.version;
    const listing = this.list().catch((error: unknown) => {
      if (this.listing === listing) this.listing = undefined;
      throw error;
    });
    this.listing = listing;
    void listing.then(
      () => {
        // A change arrived while listing: the next caller lists again.
        if (this.version !== version && this.listing === listing) this.listing = undefined;
      },
      () => {},
    );
    return listing;
  }

  /** Forgets the cached tools; the next `listTools()` asks the server again. */
  refresh(): void {
    this.version += 1;
    this.listing = undefined;
    this.changes.next();
  }

  /**
   * Closes the connection if the source opened it (a stdio child process ends); a client
   * the caller passed stays open. Later calls of the tools fail with a `McpConnectionError`.
   */
  close(): Promise<void> {
    this.refresh();
    return this.connection.close();
  }

  private async list(): Promise<readonly Tool[]> {
    const client = await this.connection.client();
    const infos = await this.listAll(client);
    const { filter } = this.options;
    const kept = filter === undefined ? infos : infos.filter((info) => filter(info));
    return uniqueTools(kept.map((info) => createMcpTool(info, this.connection, this.options)));
  }

  private async listAll(client: Client): Promise<McpToolInfo[]> {
    const infos: McpToolInfo[] = [];
    let cursor: string | undefined;
    do {
      let page: Awaited<ReturnType<Client['listTools']>>;
      try {
        page = await client.listTools(cursor === undefined ? undefined : { cursor }, {
          timeout: this.options.requestTimeout,
        });
      } catch (error) {
        throw new McpConnectionError({
          server: this.server,
          reason: `did not list its tools (${errorMessageOf(error)})`,
          cause: error,
        });
      }
      infos.push(...page.tools);
      if (infos.length > this.options.maxTools) {
        throw new McpConnectionError({
          server: this.server,
          reason: `lists more than maxTools (${this.options.maxTools}) tools; raise maxTools`,
        });
      }
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    const { maxSchemaDepth } = this.options;
    const deep = infos.find(
      (info) => schemaDepth(info.inputSchema, maxSchemaDepth) > maxSchemaDepth,
    );
    if (deep !== undefined) {
      throw new McpConnectionError({
        server: this.server,
        reason:
          `lists the tool ${JSON.stringify(deep.name)} whose input schema nests deeper than ` +
          `maxSchemaDepth (${maxSchemaDepth}); raise maxSchemaDepth`,
      });
    }
    return infos;
  }
}
