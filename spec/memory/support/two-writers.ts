import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

/** Runs two writer processes on one conversation, released at the same moment; resolves when both exited 0. */
export async function runTwoWriters(
  store: 'redis' | 'postgres' | 'sqlite',
  url: string,
  namespace: string,
  conversationId: string,
  turns: number,
): Promise<void> {
  const script = join(__dirname, 'concurrent-memory-writer.ts');
  const children = ['one', 'two'].map((writer) =>
    spawn(
      process.execPath,
      ['--import', 'tsx', script, store, url, namespace, conversationId, writer, String(turns)],
      { stdio: ['pipe', 'pipe', 'inherit'] },
    ),
  );
  // A writer that hangs must not outlive the test.
  const guard = setTimeout(() => children.forEach((child) => child.kill('SIGKILL')), 45_000);
  try {
    await run(children);
  } finally {
    clearTimeout(guard);
  }
}

async function run(children: ChildProcess[]): Promise<void> {
  await Promise.all(children.map(readyLine));
  const exits = children.map(
    (child) =>
      new Promise<void>((resolve, reject) =>
        child.once('exit', (code) =>
          code === 0 ? resolve() : reject(new Error(`writer exited ${code}`)),
        ),
      ),
  );
  for (const child of children) child.stdin?.end('go\n');
  await Promise.all(exits);
}

function readyLine(child: ChildProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (data: Buffer) => {
      out += data.toString();
      if (out.includes('ready\n')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`writer exited ${code} before it was ready`)));
  });
}
