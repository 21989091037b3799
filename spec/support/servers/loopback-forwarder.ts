import { createServer, connect, type Server, type Socket } from 'node:net';

/**
 * A loopback TCP forwarder to a store server, the part every fault-injecting proxy of the
 * specs shares: a free port, the URL rewritten to it, each client connection paired with
 * one upstream connection, and everything closed at the end. A subclass says what a pair
 * does with the bytes (`pair`).
 */
export abstract class LoopbackForwarder {
  private readonly server: Server;
  private readonly sockets = new Set<Socket>();
  private port = 0;

  protected constructor(private readonly target: { host: string; port: number }) {
    this.server = createServer((client) => {
      const upstream = connect(this.target.port, this.target.host);
      this.sockets.add(client).add(upstream);
      const forget = () => {
        this.sockets.delete(client);
        this.sockets.delete(upstream);
      };
      client.on('close', forget);
      this.pair(client, upstream);
    });
  }

  /** Listens on a free loopback port; resolves to the forwarder. */
  protected static async listen<T extends LoopbackForwarder>(forwarder: T): Promise<T> {
    await new Promise<void>((resolve) => forwarder.server.listen(0, '127.0.0.1', resolve));
    const address = forwarder.server.address();
    forwarder.port = typeof address === 'object' && address !== null ? address.port : 0;
    return forwarder;
  }

  /** The same URL with the forwarder's port. */
  rewrite(url: string): string {
    const parsed = new URL(url);
    parsed.port = String(this.port);
    return parsed.toString();
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** Wires one client connection to its upstream connection. */
  protected abstract pair(client: Socket, upstream: Socket): void;
}
