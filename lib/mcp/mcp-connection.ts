import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { McpConnectionError } from '../errors/mcp-connection-error.js';
import {
  describeServer,
  type McpHttpServer,
  type McpStdioServer,
  type ResolvedMcpToolSourceOptions,
} from './mcp-tool-source-options.js';
import { errorMessageOf } from '../errors/error-details.js';

/**
 * One MCP server's connection: opened on first use, shared by concurrent callers, dropped
 * when the transport closes so the next caller opens a new one (only for connections this
 * class opened; the caller's own client is used as given, never reconnected or closed).
 * @internal
 */
export class McpConnection {
  /** The server, for error messages. */
  readonly label: string;
  private current: Promise<Client> | undefined;
  private closed = false;
  private readonly owned: boolean;

  /**
   * @param options The source's resolved options.
   * @param onToolsChanged Called when the server's tool list changed or the connection was
   *   replaced (the cached tools are stale then).
   */
  constructor(
    private readonly options: ResolvedMcpToolSourceOptions,
    private readonly onToolsChanged: () => void,
  ) {
    this.label = describeServer(options.server) ?? 'server';
    this.owned = !('client' in options.server);
  }

  /** The connected client; the first caller connects, concurrent callers share that. */
  client(): Promise<Client> {
    if (this.closed) {
      return Promise.reject(
        new McpConnectionError({ server: this.label, reason: 'was closed by close()' }),
      );
    }
    this.current ??= this.connect().catch((error: unknown) => {
      this.current = undefined;
      throw error;
    });
    return this.current;
  }

  /**
   * Forgets the connection after a fault that leaves it unusable (an HTTP session the
   * server dropped); an owned one is closed, the next caller connects again.
   */
  drop(client: Client): void {
    if (!this.owned || this.current === undefined) return;
    const current = this.current;
    this.current = undefined;
    this.onToolsChanged();
    void current.then((open) => (open === client ? open.close() : undefined)).catch(() => {});
  }

  /** Closes an owned connection (ending a stdio child process); the caller's client stays open. */
  async close(): Promise<void> {
    this.closed = true;
    const current = this.current;
    this.current = undefined;
    if (current === undefined) return;
    const client = await current.catch(() => undefined);
    if (client === undefined) return;
    if (this.owned) await client.close();
    else if (this.options.watchListChanged) {
      client.removeNotificationHandler('notifications/tools/list_changed');
    }
  }

  private async connect(): Promise<Client> {
    const { server } = this.options;
    const client = 'client' in server ? server.client : await this.open(server);
    if (this.options.watchListChanged) {
      client.setNotificationHandler(ToolListChangedNotificationSchema, () => this.onToolsChanged());
    }
    return client;
  }

  private async open(server: McpStdioServer | McpHttpServer): Promise<Client> {
    const client = new Client(this.options.clientInfo);
    client.onclose = () => {
      // The server went away (a crashed child, a closed stream): the next caller reconnects.
      if (this.current === undefined) return;
      const current = this.current;
      current.then(
        (open) => {
          if (open === client && this.current === current) {
            this.current = undefined;
            this.onToolsChanged();
          }
        },
        () => {}, // a failed connect already reported its error to the caller
      );
    };
    try {
      await client.connect(createTransport(server), { timeout: this.options.connectTimeout });
    } catch (error) {
      await client.close().catch(() => {});
      throw new McpConnectionError({
        server: this.label,
        reason: `could not be connected (${errorMessageOf(error)})`,
        cause: error,
      });
    }
    if (this.closed) {
      // close() ran while connecting: do not leave the child process behind.
      await client.close();
      throw new McpConnectionError({ server: this.label, reason: 'was closed by close()' });
    }
    return client;
  }
}

function createTransport(server: McpStdioServer | McpHttpServer): Transport {
  if ('command' in server) {
    return new StdioClientTransport({
      command: server.command,
      ...(server.args === undefined ? {} : { args: [...server.args] }),
      ...(server.env === undefined ? {} : { env: { ...server.env } }),
      ...(server.cwd === undefined ? {} : { cwd: server.cwd }),
      stderr: server.stderr ?? 'inherit',
    });
  }
  const url = new URL(server.url);
  const requestInit: RequestInit =
    server.headers === undefined ? {} : { headers: { ...server.headers } };
  return server.transport === 'sse'
    ? new SSEClientTransport(url, { requestInit })
    : new StreamableHTTPClientTransport(url, { requestInit });
}
