import { spawn, type ChildProcess } from 'node:child_process';

/**
 * Runs a TypeScript script (through tsx) in one child process per argument list, waits until
 * each printed `ready`, releases them at the same moment (a line on their stdin) and waits
 * until every one exited 0. Whatever happens (a child fails, hangs past `timeoutMs`, or the
 * test is cut short), no child outlives the call: one left waiting for its release would
 * keep the test process alive after the run.
 * @returns Each child's standard output, in the order of `argLists`.
 */
export async function runReleasedTogether(
  script: string,
  argLists: readonly (readonly string[])[],
  timeoutMs: number,
): Promise<string[]> {
  const children = argLists.map((args) =>
    spawn(process.execPath, ['--import', 'tsx', script, ...args], {
      stdio: ['pipe', 'pipe', 'inherit'],
    }),
  );
  const killAll = () => {
    for (const child of children) {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
  };
  const guard = setTimeout(killAll, timeoutMs);
  try {
    const outputs = children.map(output);
    await Promise.all(outputs.map((out) => out.ready));
    for (const child of children) child.stdin?.end('go\n');
    return await Promise.all(outputs.map((out) => out.done));
  } finally {
    clearTimeout(guard);
    killAll();
  }
}

function output(child: ChildProcess): { ready: Promise<void>; done: Promise<string> } {
  let out = '';
  let ready!: () => void;
  const readyPromise = new Promise<void>((resolve) => (ready = resolve));
  child.stdout?.on('data', (data: Buffer) => {
    out += data.toString();
    if (out.includes('ready\n')) ready();
  });
  const done = new Promise<string>((resolve, reject) =>
    child.once('exit', (code, signal) =>
      code === 0 ? resolve(out) : reject(new Error(`child exited ${signal ?? code}`)),
    ),
  );
  done.catch(() => undefined);
  return { ready: Promise.race([readyPromise, done.then(() => undefined)]), done };
}
