import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

/**
 * Runs two writer processes (journal-writer.ts) on one run, released at the same moment.
 * @returns How many conflicts each writer met, once both exited 0.
 */
export async function runTwoJournalWriters(
  store: 'sqlite' | 'redis' | 'postgres',
  url: string,
  namespace: string,
  count: number,
): Promise<number[]> {
  const script = join(__dirname, 'journal-writer.ts');
  const children = ['one', 'two'].map((writer) =>
    spawn(
      process.execPath,
      ['--import', 'tsx', script, store, url, namespace, writer, String(count)],
      { stdio: ['pipe', 'pipe', 'inherit'] },
    ),
  );
  // A writer that hangs must not outlive the test.
  const guard = setTimeout(() => children.forEach((child) => child.kill('SIGKILL')), 90_000);
  try {
    const outputs = children.map(output);
    await Promise.all(outputs.map((out) => out.ready));
    for (const child of children) child.stdin?.end('go\n');
    const texts = await Promise.all(outputs.map((out) => out.done));
    return texts.map((text) => Number(/conflicts (\d+)/.exec(text)?.[1] ?? NaN));
  } finally {
    clearTimeout(guard);
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
    child.once('exit', (code) =>
      code === 0 ? resolve(out) : reject(new Error(`writer exited ${code}`)),
    ),
  );
  done.catch(() => undefined);
  return { ready: Promise.race([readyPromise, done.then(() => undefined)]), done };
}
