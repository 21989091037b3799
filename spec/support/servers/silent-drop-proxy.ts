import type { Socket } from 'node:net';
import { LoopbackForwarder } from './loopback-forwarder';

/**
 * A loopback TCP forwarder that models a network path (NAT, a container's or a cloud
 * load balancer's) on which a server restart is not seen by the client: when the server
 * side of a connection closes, the client side stays open, and the client learns of it
 * only when it next writes (the connection is then reset, as a peer without that
 * connection answers). On loopback without it, the kernel tells the client at once and
 * `pg` drops the idle client before it is reused, which hides the stale-connection case.
 */
export class SilentDropProxy extends LoopbackForwarder {
  /** How a client that writes on a dropped connection learns of it: a reset, or a close. */
  dropWith: 'reset' | 'close' = 'reset';

  private constructor(target: { host: string; port: number }) {
    super(target);
  }

  /** Starts a proxy to `host:port` on a free loopback port. */
  static start(target: { host: string; port: number }): Promise<SilentDropProxy> {
    return LoopbackForwarder.listen(new SilentDropProxy(target));
  }

  protected pair(client: Socket, upstream: Socket): void {
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
    client.on('close', () => upstream.destroy());
  }
}
