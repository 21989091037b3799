import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';

/**
 * One server program run by a test: started with `spawn`, its output kept for the error
 * message when it does not come up, stopped with a signal and awaited.
 */
export class ServerProcess {
  private child: ChildProcess | undefined;
  private output = '';

  constructor(
    private readonly name: string,
    private readonly command: string,
    private readonly args: readonly string[],
    private readonly options: SpawnOptions = {},
  ) {}

  /** Whether the process is running. */
  get running(): boolean {
    return (
      this.child !== undefined && this.child.exitCode === null && this.child.signalCode === null
    );
  }

  /** The process id, while it runs. */
  get pid(): number | undefined {
    return this.running ? this.child?.pid : undefined;
  }

  /** Starts the program; resolves once `ready` says so, rejects with its output when it exits or times out. */
  async start(ready: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
    this.output = '';
    const child = spawn(this.command, [...this.args], {
      ...this.options,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    const keep = (data: Buffer) => {
      this.output = (this.output + data.toString()).slice(-4000);
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    const exited = new Promise<never>((_, reject) => {
      child.once('exit', (code, signal) =>
        reject(
          new Error(`${this.name} exited (${code ?? signal}) while starting:\n${this.output}`),
        ),
      );
      child.once('error', reject);
    });
    exited.catch(() => undefined);
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const up = await Promise.race([ready().catch(() => false), exited]);
      if (up) return;
      if (Date.now() > deadline) {
        await this.stop('SIGKILL');
        throw new Error(`${this.name} did not come up within ${timeoutMs} ms:\n${this.output}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** Sends `signal` and waits for the exit (SIGKILL after 10 s). */
  async stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
    const child = this.child;
    if (child === undefined || !this.running) return;
    const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill(signal);
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await gone;
    clearTimeout(timer);
  }
}
