import { execFileSync } from 'node:child_process';
import { callgrindInstructions } from '../harness/callgrind.js';

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
  const env = { ...process.env };
  delete env['NODE_OPTIONS'];
  delete env['TSX_TSCONFIG_PATH'];
  return (await callgrindInstructions([file], { label: `W9 ${dir}/${file}`, cwd: dir, env })) / 1e6;
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
