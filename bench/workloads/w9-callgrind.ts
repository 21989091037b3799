import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const execFileAsync = promisify(execFile);

/** Whether `valgrind` is on the PATH (the W9 instruction rows need it). */
export function hasValgrind(): boolean {
  try {
    execFileSync('valgrind', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/**
 * The instructions of one fresh `node` process running `file` in `dir` under callgrind:
 * every thread, from the process's start to its exit (the script exits right after the
 * answer's last delta). Unlike CPU ms, the count does not grow with the machine's load.
 * @param dir The consumer folder (where the script's imports resolve).
 * @param file The cold-start script.
 * @returns Millions of instructions.
 */
export async function millionInstructions(dir: string, file: string): Promise<number> {
  const out = mkdtempSync(join(tmpdir(), 'rx-advisors-w9-callgrind-'));
  const env = { ...process.env };
  delete env['NODE_OPTIONS'];
  delete env['TSX_TSCONFIG_PATH'];
  try {
    const { stderr } = await execFileAsync(
      'valgrind',
      [
        '--tool=callgrind',
        `--callgrind-out-file=${join(out, 'callgrind.out')}`,
        process.execPath,
        file,
      ],
      { cwd: dir, encoding: 'utf8', env, maxBuffer: 16 * 1024 * 1024 },
    );
    const collected = /Collected : (\d+)/.exec(stderr);
    if (collected === null) throw new Error(`W9 callgrind ${dir}/${file}: no count in ${stderr}`);
    return Number(collected[1]) / 1e6;
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

/**
 * The issue's measure of a cold start: rx-advisors' cost beyond rxjs (the peer its users
 * load anyway) over the AI SDK's cost beyond Node alone; the goal is at most 1/3.
 * @param value The median of each framework.
 * @returns The ratio, or `undefined` when a framework is missing.
 */
export function ownCostRatio(value: (framework: string) => number | undefined): number | undefined {
  const [ours, rxjs, aiSdk, node] = ['rx-advisors', 'floor-rxjs', 'ai-sdk', 'floor-asyncgen'].map(
    value,
  );
  if (ours === undefined || rxjs === undefined || aiSdk === undefined || node === undefined) {
    return undefined;
  }
  return (ours - rxjs) / (aiSdk - node);
}
