import { hasErrorMarker, RxAdvisorsError } from './rx-advisors-error.js';

const MARKER = Symbol.for('rx-advisors.error.McpConnectionError');

/**
 * An MCP server could not be reached, did not finish the handshake in time, or its
 * connection was lost. Raised while tools are discovered (the call fails before any model
 * call); a call that loses its server mid-way gets an error result instead.
 *
 * @example
 * ```ts
 * import { McpConnectionError, McpToolSource } from 'rx-advisors/mcp';
 *
 * const source = new McpToolSource({ server: { url: 'http://127.0.0.1:1/mcp' } });
 * source.listTools().catch((e) => McpConnectionError.isInstance(e) && console.error(e.server));
 * ```
 */
export class McpConnectionError extends RxAdvisorsError {
  /** The server, as a short description (`stdio: node server.mjs`, `http: https://…`). */
  readonly server: string;

  /** @param options The server and the underlying error. */
  constructor(options: { server: string; reason: string; cause?: unknown }) {
    super(
      `The MCP server "${options.server}" ${options.reason}. ` +
        'Check that it runs and is reachable (command, URL, credentials), then try again.',
      { cause: options.cause },
    );
    Object.defineProperty(this, MARKER, { value: true });
    this.server = options.server;
  }

  /**
   * Whether `error` is a {@link McpConnectionError}, even from another copy of the package.
   * @param error Any value.
   * @returns `true` when `error` carries this class's marker.
   */
  static override isInstance(error: unknown): error is McpConnectionError {
    return hasErrorMarker(error, MARKER);
  }
}
