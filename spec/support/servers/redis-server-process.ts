import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port';
import { ServerProcess } from './server-process';

/**
 * A private `redis-server` on a free loopback port, in a temporary folder, with an
 * append-only file synced on every write, so a stop and start keeps what was written.
 */
export class RedisServerProcess {
  private process: ServerProcess | undefined;
  private folder = '';
  private port = 0;

  constructor(private readonly binary: string) {}

  /** `redis://127.0.0.1:<port>`. */
  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  /** Starts the server (again, on the same port and data, after `stop`). */
  async start(): Promise<void> {
    if (this.folder === '') {
      this.folder = mkdtempSync(join(tmpdir(), 'rx-advisors-redis-'));
      this.port = await freePort();
    }
    this.process = new ServerProcess('redis-server', this.binary, [
      '--port',
      String(this.port),
      '--bind',
      '127.0.0.1',
      '--dir',
      this.folder,
      '--save',
      '',
      '--appendonly',
      'yes',
      '--appendfsync',
      'always',
      '--protected-mode',
      'yes',
    ]);
    await this.process.start(() => ping(this.port));
  }

  /** Stops the server; `SIGKILL` simulates a crash. */
  async stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
    await this.process?.stop(signal);
  }

  /** Stops the server and removes its folder. */
  async dispose(): Promise<void> {
    await this.stop();
    if (this.folder !== '') rmSync(this.folder, { recursive: true, force: true });
  }
}

/** Whether a Redis server answers PING on `port` (and has loaded its data). */
function ping(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let reply = '';
    socket.setTimeout(1000, () => socket.destroy());
    socket.on('connect', () => socket.write('PING\r\n'));
    socket.on('data', (data) => {
      reply += data.toString();
      if (reply.includes('\r\n')) {
        socket.destroy();
        resolve(reply.startsWith('+PONG'));
      }
    });
    socket.on('error', () => resolve(false));
    socket.on('close', () => resolve(false));
  });
}
