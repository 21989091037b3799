import { createServer, connect, type Server, type Socket } from 'node:net';

/**
 * A loopback TCP forwarder that models a network path (NAT, a container's or a cloud
 * load balancer's) on which a server restart is not seen by the client: when the server
 * side of a connection closes, the client side stays open, and the client learns of it
 * only when it next writes (the connection is then reset, as a peer without that
 * connection answers). On loopback without it, the kernel tells the client at once and
 * `pg` drops the idle client before it is reused, which hides the stale-connection case.
 */
export class SilentDropProxy {
  private readonly server: Server;
  private readonly sockets = new Set<Socket>();
  private port = 0;

  /** How a client that writes on a dropped connection learns of it: a reset, or a close. */
  dropWith: 'reset' | 'close' = 'reset';

  private constructor(private readonly target: { host: string; port: number }) {
    this.server = createServer((client) => this.forward(client));
  }

  /** Starts a proxy to `host:port` on a free loopback port. */
  static async start(target: { host: string; port: number }): Promise<SilentDropProxy> {
    const proxy = new SilentDropProxy(target);
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

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private forward(client: Socket): void {
    const upstream = connect(this.target.port, this.target.host);
    this.sockets.add(client).add(upstream);
    let dropped = false;
    const drop = () => {
      dropped = true;
      upstream.destroy();
    };
    upstream.on('data', (data: Buffer) => client.write(data));
    upstream.on('end', drop);
    upstream.on('error', drop);
    upstream.on('close', () => (dropped = true));
    client.on('data', (data: Buffer) => {
      if (!dropped) upstream.write(data);
      else if (this.dropWith === 'reset') client.resetAndDestroy();
      else client.end();
    });
    client.on('error', () => upstream.destroy());
    client.on('close', () => {
      upstream.destroy();
      this.sockets.delete(client);
      this.sockets.delete(upstream);
    });
  }
}
