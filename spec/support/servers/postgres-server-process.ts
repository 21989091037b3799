import { execFile, execFileSync } from 'node:child_process';
import { chownSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port';
import { postgresUser } from './server-binaries';
import { ServerProcess } from './server-process';

/**
 * A private PostgreSQL cluster (`initdb` + `postgres`) on a free loopback port, in a
 * temporary folder, trust authentication for the `postgres` role. As root it runs as the
 * `postgres` user (PostgreSQL refuses root). fsync is off: the tests stop the server with
 * signals, never the machine.
 */
export class PostgresServerProcess {
  private process: ServerProcess | undefined;
  private folder = '';
  private port = 0;
  private readonly user = postgresUser();

  constructor(private readonly bin: string) {}

  /** `postgres://postgres@127.0.0.1:<port>/postgres`. */
  get url(): string {
    return `postgres://postgres@127.0.0.1:${this.port}/postgres`;
  }

  /** Creates the cluster on the first call, then starts the server on the same port and data. */
  async start(): Promise<void> {
    const owner = this.user === undefined ? {} : { uid: this.user.uid, gid: this.user.gid };
    if (this.folder === '') {
      this.folder = mkdtempSync(join(tmpdir(), 'rx-advisors-pg-'));
      if (this.user !== undefined) chownSync(this.folder, this.user.uid, this.user.gid);
      this.port = await freePort();
      execFileSync(
        join(this.bin, 'initdb'),
        [
          '-D',
          join(this.folder, 'data'),
          '-U',
          'postgres',
          '--auth=trust',
          '-E',
          'UTF8',
          '--no-locale',
          '--no-sync',
        ],
        { ...owner, cwd: this.folder, stdio: 'ignore' },
      );
    }
    this.process = new ServerProcess(
      'postgres',
      join(this.bin, 'postgres'),
      [
        '-D',
        join(this.folder, 'data'),
        '-p',
        String(this.port),
        '-c',
        'listen_addresses=127.0.0.1',
        '-c',
        `unix_socket_directories=${this.folder}`,
        '-c',
        'fsync=off',
        '-c',
        'max_connections=200',
      ],
      { ...owner, cwd: this.folder },
    );
    await this.process.start(() => this.isReady());
  }

  /** Stops the server: `SIGINT` is PostgreSQL's fast shutdown, `SIGQUIT` its immediate (crash-like) one. */
  async stop(signal: NodeJS.Signals = 'SIGINT'): Promise<void> {
    await this.process?.stop(signal);
  }

  /** Stops the server and removes its folder. */
  async dispose(): Promise<void> {
    await this.stop();
    if (this.folder !== '') rmSync(this.folder, { recursive: true, force: true });
  }

  private isReady(): Promise<boolean> {
    return new Promise((resolve) => {
      execFile(
        join(this.bin, 'pg_isready'),
        ['-h', '127.0.0.1', '-p', String(this.port), '-U', 'postgres', '-t', '1'],
        (error) => resolve(error === null),
      );
    });
  }
}
