// The regression check (issue 31, "W1–W8 within ±10 %") on a shared machine: two commits
// (head, default HEAD; base) built apart, the same benchmark code timing both, runs
// interleaved (base, head, head, base, …) so machine load moves both alike; per row the
// ratio head ÷ base of each round, and their median and spread.
//
//   npx tsx bench/compare.ts --base=aefd636 [--head=HEAD] [--rounds=3] [--only=W1,…]
//       [--quick] [--keep] [--frameworks=rx-advisors] [-- <more bench/run.ts flags>]
//
// Each commit is checked out in a temporary git worktree (node_modules symlinked to this
// tree's) and this tree's bench/ copied over its bench/: only the library differs, and
// this tree's own dist/ is left alone (uncommitted lib/ changes are not compared).
// See docs/performance.md ("The regression check").
import { execFileSync, spawn } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
} from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { compareRows, compareTable, type Round } from './harness/compare-rows.js';
import type { BenchResult } from './harness/types.js';

interface CompareOptions {
  base: string;
  head: string;
  rounds: number;
  only: string;
  quick: boolean;
  keep: boolean;
  frameworks: string;
  passThrough: string[];
}

const TREE = join(__dirname, '..');

function options(args: readonly string[]): CompareOptions {
  const cut = args.indexOf('--');
  const own = cut < 0 ? args : args.slice(0, cut);
  const value = (name: string): string | undefined =>
    own.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3);
  const base = value('base');
  if (base === undefined) throw new Error('compare: --base=<git ref> is required');
  const rounds = Number(value('rounds') ?? 3);
  if (!Number.isInteger(rounds) || rounds < 1) throw new Error('compare: --rounds=<n ≥ 1>');
  return {
    base,
    head: value('head') ?? 'HEAD',
    rounds,
    only: value('only') ?? 'W1,W2,W3,W4,W5,W6,W7,W8',
    quick: own.includes('--quick'),
    keep: own.includes('--keep'),
    frameworks: value('frameworks') ?? 'rx-advisors',
    passThrough: cut < 0 ? [] : args.slice(cut + 1),
  };
}

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8' }).trim();
}

/** `ref` in a temporary worktree, with this tree's node_modules and bench/. */
function prepare(ref: string): string {
  const sha = git(TREE, 'rev-parse', '--verify', `${ref}^{commit}`);
  const dir = join(mkdtempSync(join(tmpdir(), 'rx-compare-')), sha.slice(0, 9));
  git(TREE, 'worktree', 'add', '--detach', dir, sha);
  for (const modules of ['node_modules', 'bench/node_modules']) {
    const target = join(dir, modules);
    rmSync(target, { recursive: true, force: true });
    symlinkSync(realpathSync(join(TREE, modules)), target);
  }
  cpSync(join(TREE, 'bench'), join(dir, 'bench'), {
    recursive: true,
    filter: (from) => {
      const path = relative(join(TREE, 'bench'), from);
      return path !== 'node_modules' && path !== 'results.json';
    },
  });
  return dir;
}

function build(dir: string): void {
  console.error(`building ${dir}…`);
  execFileSync('node', ['scripts/install-bench-deps.mjs'], { cwd: dir, stdio: 'inherit' });
  execFileSync('node', ['scripts/build.mjs'], { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'] });
}

/** One `bench/run.ts` in `dir`; resolves with its rows. */
function benchOnce(dir: string, opts: CompareOptions, out: string): Promise<BenchResult[]> {
  const args = [
    '--expose-gc',
    '--import',
    'tsx',
    'bench/run.ts',
    `--only=${opts.only}`,
    `--json=${out}`,
    ...(opts.quick ? ['--quick'] : []),
    ...opts.passThrough,
  ];
  return new Promise((resolve, reject) => {
    const child = spawn('node', args, {
      cwd: dir,
      stdio: ['ignore', 'ignore', 'inherit'],
      env: {
        ...process.env,
        TSX_TSCONFIG_PATH: 'bench/tsconfig.bench.json',
        BENCH_FRAMEWORKS: opts.frameworks,
      },
    });
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code !== 0) reject(new Error(`bench/run.ts in ${dir} exited with ${code}`));
      else resolve(JSON.parse(readFileSync(out, 'utf8')) as BenchResult[]);
    });
  });
}

async function main(): Promise<void> {
  const opts = options(process.argv.slice(2));
  const started = performance.now();
  const baseDir = prepare(opts.base);
  const headDir = prepare(opts.head);
  const scratch = mkdtempSync(join(tmpdir(), 'rx-compare-out-'));
  try {
    build(baseDir);
    build(headDir);
    const rounds: Round[] = [];
    for (let r = 0; r < opts.rounds; r++) {
      // base, head, then head, base: each tree runs first as often as the other.
      const order = r % 2 === 0 ? (['base', 'head'] as const) : (['head', 'base'] as const);
      const round: Partial<Round> = {};
      for (const side of order) {
        const at = performance.now();
        const rows = await benchOnce(
          side === 'base' ? baseDir : headDir,
          opts,
          join(scratch, `${side}-${r}.json`),
        );
        round[side] = rows;
        console.error(
          `round ${r + 1}/${opts.rounds} ${side}: ${((performance.now() - at) / 1000).toFixed(0)} s, load ${loadavg()[0].toFixed(1)}`,
        );
      }
      rounds.push(round as Round);
    }
    const minutes = ((performance.now() - started) / 60_000).toFixed(1);
    const head = git(TREE, 'rev-parse', '--short', `${opts.head}^{commit}`);
    console.log(
      `## Regression check: head (${opts.head} = ${head}) ÷ base (${opts.base})\n\n` +
        `${opts.rounds} rounds, interleaved; --only=${opts.only}${opts.quick ? ' --quick (small sizes)' : ''}; ` +
        `frameworks ${opts.frameworks}; ${minutes} min; load average ${loadavg()
          .map((l) => l.toFixed(1))
          .join(' / ')} at the end.\n` +
        `A cell is the median of the rounds' medians; ratio = median of the per-round head ÷ base [min–max]; ` +
        `lower is better for every metric. "over" = the ratio's median above 1.10 and every round above 1.\n`,
    );
    console.log(compareTable(compareRows(rounds)));
  } finally {
    for (const dir of [baseDir, headDir]) {
      if (opts.keep) {
        console.error(`kept the worktree ${dir}`);
        continue;
      }
      git(TREE, 'worktree', 'remove', '--force', dir);
      rmSync(join(dir, '..'), { recursive: true, force: true });
    }
    if (existsSync(scratch)) rmSync(scratch, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
