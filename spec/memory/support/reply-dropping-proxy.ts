import { createServer, connect, type Server, type Socket } from 'node:net';

/** PostgreSQL's ReadyForQuery message (idle): the server finished a statement, committed. */
const READY_FOR_QUERY = Buffer.from([0x5a, 0, 0, 0, 5]);

/**
 * A loopback TCP forwarder to PostgreSQL that can lose one reply: once armed with
 * `dropReplyTo(marker)`, the first statement whose text contains `marker` reaches the
 * server and runs to its end, but its reply never reaches the client, whose connection is
 * reset when the server said it is ready again. The case a single-statement write cannot
 * tell from "never ran": the statement committed, the client saw only a dropped connection.
 */
export class ReplyDroppingProxy {
  private readonly server: Server;
  private readonly sockets = new Set<Socket>();
  private port = 0;
  private marker: string | undefined;
  /** How many replies it dropped. */
  dropped = 0;

  private constructor(private readonly target: { host: string; port: number }) {
    this.server = createServer((client) => this.forward(client));
  }

  /** Starts a proxy to `host:port` on a free loopback port. */
  static async start(target: { host: string; port: number }): Promise<ReplyDroppingProxy> {
    const proxy = new ReplyDroppingProxy(target);
    await new Promise<void>((resolve) => proxy.server.listen(0, '127.0.0.1', resolve));
    const address = proxy.server.address();
    proxy.port = typeof address === 'object' && address !== null ? address.port : 0;
    return proxy;
  }

  /** The same URL with the proxy's port. */
  rewrite(url: string): string {
    const parsed = new URL(url);
    parsed.port = String(this.port);
    return parsed.toString();
  }

  /** Loses the reply to the next statement containing `marker`, and only that one. */
  dropReplyTo(marker: string): void {
    this.marker = marker;
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private forward(client: Socket): void {
    const upstream = connect(this.target.port, this.target.host);
    this.sockets.add(client).add(upstream);
    let losing = false;
    upstream.on('data', (data: Buffer) => {
      if (!losing) {
        client.write(data);
      } else if (data.includes(READY_FOR_QUERY)) {
        this.dropped++;
        client.resetAndDestroy();
        upstream.destroy();
      }
    });
    client.on('data', (data: Buffer) => {
      if (this.marker !== undefined && data.includes(this.marker)) {
        this.marker = undefined;
        losing = true;
      }
      upstream.write(data);
    });
    const end = () => {
      client.destroy();
      upstream.destroy();
      this.sockets.delete(client);
      this.sockets.delete(upstream);
    };
    upstream.on('error', end);
    upstream.on('close', end);
    client.on('error', end);
    client.on('close', end);
  }
}
