import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const execFileAsync = promisify(execFile);

/** Where and how {@link callgrindInstructions} runs its process. */
export interface CallgrindOptions {
  /** Names the run in errors (a workload, a script). */
  readonly label: string;
  /** The working folder (where the script's imports resolve); this process's by default. */
  readonly cwd?: string;
  /** The environment; this process's by default. */
  readonly env?: NodeJS.ProcessEnv;
}

/**
 * The instructions one fresh `node` process executes under `valgrind --tool=callgrind`:
 * every thread, from the process's start to its exit. Unlike CPU time, the count does not
 * grow with the machine's load. The profile goes to a temporary folder, removed afterwards;
 * only the total (callgrind's `Collected :` line) is kept.
 * @param nodeArgs What follows `node` on the command line (flags, the script, its arguments).
 * @param options The label, working folder and environment.
 * @returns The instructions executed.
 * @example
 * ```ts
 * const total = await callgrindInstructions(['cold-start.cjs'], { label: 'W9', cwd: dir });
 * ```
 */
export async function callgrindInstructions(
  nodeArgs: readonly string[],
  options: CallgrindOptions,
): Promise<number> {
  const out = mkdtempSync(join(tmpdir(), 'rx-advisors-callgrind-'));
  try {
    const { stderr } = await execFileAsync(
      'valgrind',
      [
        '--tool=callgrind',
        `--callgrind-out-file=${join(out, 'callgrind.out')}`,
        process.execPath,
        ...nodeArgs,
      ],
      { cwd: options.cwd, env: options.env, encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 },
    );
    const collected = /Collected : (\d+)/.exec(stderr);
    if (collected === null) throw new Error(`${options.label} callgrind: no count in ${stderr}`);
    return Number(collected[1]);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}
