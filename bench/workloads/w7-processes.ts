import { fork, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

/**
 * Forks one of the bench's process scripts (`bench/<script>`) under tsx with `--expose-gc`,
 * its stdout and stderr shown; the environment (so `TSX_TSCONFIG_PATH`) is inherited.
 * @param script The file name under bench/.
 * @param args Its arguments.
 * @param execArgv More Node flags (e.g. `--cpu-prof`).
 * @returns The child.
 */
export function forkBenchProcess(
  script: string,
  args: readonly string[] = [],
  execArgv: readonly string[] = [],
): ChildProcess {
  return fork(join(__dirname, '..', script), [...args], {
    execArgv: ['--expose-gc', '--import', 'tsx', ...execArgv],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
}

/**
 * The next message of `type` from a child; rejects when the child exits first or after
 * `limitMs`.
 * @param child The child.
 * @param type The message's `type`.
 * @param limitMs How long to wait.
 * @returns The message.
 */
export function nextMessage<T extends { type: string }>(
  child: ChildProcess,
  type: T['type'],
  limitMs: number,
): Promise<T> {
  return new Promise((resolve, reject) => {
    const onMessage = (message: { type: string }): void => {
      if (message.type !== type) return;
      done();
      resolve(message as T);
    };
    const onExit = (code: number | null): void => {
      done();
      reject(new Error(`the process exited (${code}) before its '${type}' message`));
    };
    const timer = setTimeout(() => {
      done();
      reject(new Error(`no '${type}' message within ${limitMs} ms`));
    }, limitMs);
    const done = (): void => {
      clearTimeout(timer);
      child.off('message', onMessage);
      child.off('exit', onExit);
    };
    child.on('message', onMessage);
    child.once('exit', onExit);
  });
}

/**
 * Asks a child to stop and waits for its exit (killing it after 5 s).
 * @param child The child.
 */
export async function stopBenchProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  if (child.connected) child.send({ type: 'stop' });
  const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
  await exited;
  clearTimeout(timer);
}
