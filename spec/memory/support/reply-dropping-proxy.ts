import type { Socket } from 'node:net';
import { LoopbackForwarder } from '../../support/servers/loopback-forwarder';

/** PostgreSQL's ReadyForQuery message (idle): the server finished a statement, committed. */
const READY_FOR_QUERY = Buffer.from([0x5a, 0, 0, 0, 5]);

/**
 * A loopback TCP forwarder to PostgreSQL that can lose one reply: once armed with
 * `dropReplyTo(marker)`, the first statement whose text contains `marker` reaches the
 * server and runs to its end, but its reply never reaches the client, whose connection is
 * reset when the server said it is ready again. The case a single-statement write cannot
 * tell from "never ran": the statement committed, the client saw only a dropped connection.
 */
export class ReplyDroppingProxy extends LoopbackForwarder {
  private marker: string | undefined;
  /** How many replies it dropped. */
  dropped = 0;

  private constructor(target: { host: string; port: number }) {
    super(target);
  }

  /** Starts a proxy to `host:port` on a free loopback port. */
  static start(target: { host: string; port: number }): Promise<ReplyDroppingProxy> {
    return LoopbackForwarder.listen(new ReplyDroppingProxy(target));
  }

  /** Loses the reply to the next statement containing `marker`, and only that one. */
  dropReplyTo(marker: string): void {
    this.marker = marker;
  }

  protected pair(client: Socket, upstream: Socket): void {
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
    };
    upstream.on('error', end);
    upstream.on('close', end);
    client.on('error', end);
    client.on('close', end);
  }
}
