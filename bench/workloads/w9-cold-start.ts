import { execFile, execFileSync } from 'node:child_process';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import {
  coldStartScript,
  w9AiSdk,
  w9FloorAsyncGen,
  w9FloorRxjs,
  w9LangChain,
  w9RxAdvisors,
  type ColdStartSample,
  type ModuleKind,
  type W9Adapter,
} from '../adapters/w9-cold-start.js';
import { textFixture } from '../harness/fixtures.js';
import type { Report } from '../harness/report.js';
import { quantile, quartiles } from '../harness/stats.js';
import { quickConfig, type BenchConfig } from './config.js';
import { hasValgrind, millionInstructions, ownCostRatio } from './w9-callgrind.js';

const root = join(__dirname, '..', '..');
const MODULES: readonly ModuleKind[] = ['cjs', 'esm'];
const execFileAsync = promisify(execFile);

function run(command: string, args: string[], cwd: string): string {
  return execFileSync(command, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

function versionOf(name: string): string {
  for (const base of [join(root, 'bench', 'node_modules'), join(root, 'node_modules')]) {
    const file = join(base, name, 'package.json');
    if (existsSync(file))
      return (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
  }
  throw new Error(`W9: ${name} is not installed (npm run bench installs the bench dependencies)`);
}

/**
 * A consumer folder as a user has it: `npm install` of `specs` (npm 7+ adds the required
 * peers), preferring the local npm cache, install scripts skipped.
 * @param dir The folder (created).
 * @param specs What to install: `name@version` or a tarball path.
 */
export function installConsumer(dir: string, specs: readonly string[]): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ private: true }));
  if (specs.length === 0) return;
  run(
    'npm',
    [
      'install',
      '--prefer-offline',
      '--ignore-scripts',
      '--no-audit',
      '--no-fund',
      '--loglevel=error',
      ...specs,
    ],
    dir,
  );
}

/** Bytes of the regular files under `dir` (symbolic links not followed). */
function bytesUnder(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) total += bytesUnder(path);
    else if (entry.isFile()) total += lstatSync(path).size;
  }
  return total;
}

/** The packages npm installed in a consumer (`node_modules/.package-lock.json`). */
function installedPackages(dir: string): string[] {
  const lock = join(dir, 'node_modules', '.package-lock.json');
  if (!existsSync(lock)) return [];
  const { packages } = JSON.parse(readFileSync(lock, 'utf8')) as {
    packages: Record<string, { version: string }>;
  };
  return Object.entries(packages).map(
    ([path, { version }]) => `${path.slice(path.lastIndexOf('node_modules/') + 13)}@${version}`,
  );
}

/**
 * Runs a cold-start script in a fresh `node` process and returns what it printed.
 * @param dir The consumer folder (where its imports resolve).
 * @param file The script's file name in `dir`.
 * @returns The sample.
 */
export async function coldStart(dir: string, file: string): Promise<ColdStartSample> {
  const env = { ...process.env };
  delete env['NODE_OPTIONS'];
  delete env['TSX_TSCONFIG_PATH'];
  const { stdout } = await execFileAsync(process.execPath, [file], {
    cwd: dir,
    encoding: 'utf8',
    env,
  });
  const sample = JSON.parse(stdout.trim().split('\n').pop() ?? '') as ColdStartSample;
  if (!sample.ok) throw new Error(`W9 ${dir}/${file}: no first chunk, or not the whole text`);
  return sample;
}

/** Writes the CommonJS and ESM cold-start scripts of `adapter` into `dir`. */
export function writeScripts(dir: string, adapter: W9Adapter, deltas: readonly string[]): void {
  for (const module of MODULES) {
    writeFileSync(
      join(dir, `cold-${adapter.framework}.${module === 'cjs' ? 'cjs' : 'mjs'}`),
      coldStartScript(adapter, module, deltas),
    );
  }
}

/**
 * W9 cold start and footprint. Packs rx-advisors from dist (npm pack) and installs it,
 * `ai` and `@langchain/core` each into its own temporary consumer (from the npm cache
 * where it can); reports each package's installed size and dependency count, then spawns
 * fresh `node` processes (CommonJS and ESM, interleaved) that import the package, make a
 * first call on an in-memory model and report ms from process start to the first text
 * delta, ms from the first import to it, and the process's CPU ms at that point; with
 * `--callgrind` (`npm run bench -- --only=W9 --callgrind`), also their instructions.
 */
export async function runW9(config: BenchConfig, report: Report): Promise<void> {
  const quick = config === quickConfig;
  const repetitions = quick ? 3 : 21;
  const base = mkdtempSync(join(tmpdir(), 'rx-advisors-w9-'));
  try {
    const tarball = run('npm', ['pack', '--silent', '--pack-destination', base], root)
      .trim()
      .split('\n')
      .pop()!;
    const ours = join(base, 'rx-advisors');
    installConsumer(ours, [join(base, tarball)]);
    const consumers = new Map<W9Adapter, string>([
      [w9RxAdvisors, ours],
      [w9FloorRxjs, ours],
      [w9FloorAsyncGen, ours],
    ]);
    for (const adapter of [w9AiSdk, w9LangChain]) {
      const dir = join(base, adapter.framework);
      installConsumer(
        dir,
        adapter.install.map((name) => `${name}@${versionOf(name)}`),
      );
      consumers.set(adapter, dir);
    }
    for (const [adapter, dir] of consumers) {
      if (adapter.packageName === undefined) continue;
      const packages = installedPackages(dir);
      const own = join(dir, 'node_modules', ...adapter.packageName.split('/'));
      const rows: [Record<string, string>, 'installed-kb' | 'dependencies', number][] = [
        [{ scope: 'package' }, 'installed-kb', bytesUnder(own) / 1024],
        [
          { scope: 'with-dependencies' },
          'installed-kb',
          bytesUnder(join(dir, 'node_modules')) / 1024,
        ],
        [{ scope: 'installed' }, 'dependencies', packages.length - 1],
      ];
      for (const [params, metric, value] of rows) {
        const rounded = Math.round(value * 10) / 10;
        report.addRow({
          workload: 'W9',
          params,
          framework: adapter.framework,
          metric,
          median: rounded,
          p25: rounded,
          p75: rounded,
        });
      }
      report.note(`W9 ${adapter.framework} installs: ${packages.sort().join(', ')}`);
    }

    const { deltas } = textFixture(10);
    for (const [adapter, dir] of consumers) writeScripts(dir, adapter, deltas);
    const adapters = [...consumers.keys()];
    const samples = new Map<string, ColdStartSample[]>();
    // One warm-up round (the file system cache), then interleaved repetitions.
    for (let round = -1; round < repetitions; round++) {
      for (let k = 0; k < adapters.length; k++) {
        const adapter = adapters[(Math.max(0, round) + k) % adapters.length];
        for (const module of round % 2 === 0 ? MODULES : [...MODULES].reverse()) {
          const file = `cold-${adapter.framework}.${module === 'cjs' ? 'cjs' : 'mjs'}`;
          const sample = await coldStart(consumers.get(adapter)!, file);
          if (round < 0) continue;
          const key = `${adapter.framework}|${module}`;
          samples.set(key, [...(samples.get(key) ?? []), sample]);
        }
      }
    }
    // Wall ms from process start, from the first import and from the end of the imports
    // (the first call alone) to the first chunk, and the process's CPU ms at the first
    // chunk (what a loaded machine inflates least).
    const measures = {
      'process-start': (s: ColdStartSample) => s.first,
      import: (s: ColdStartSample) => s.first - s.started,
      'first-call': (s: ColdStartSample) => s.first - s.imported,
      'process-start-cpu': (s: ColdStartSample) => s.cpu,
    } as const;
    for (const module of MODULES) {
      for (const [from, measure] of Object.entries(measures)) {
        for (const adapter of adapters) {
          const values = samples.get(`${adapter.framework}|${module}`)!.map(measure);
          report.addRow({
            workload: 'W9',
            params: { module, from },
            framework: adapter.framework,
            metric: from.endsWith('-cpu') ? 'cpu-ms-to-first-chunk' : 'ms-to-first-chunk',
            ...quartiles(values),
          });
          report.note(
            `W9 ${module} from ${from} ${adapter.framework}: p90 ${quantile(values, 0.9).toFixed(1)} ms (${values.length} processes)`,
          );
        }
      }
    }
    for (const module of MODULES) {
      const cpu = (framework: string) => {
        const values = samples.get(`${framework}|${module}`);
        return values === undefined
          ? undefined
          : quantile(
              values.map((s) => s.cpu),
              0.5,
            );
      };
      report.note(
        `W9 ${module} CPU ms to the first chunk, our cost beyond rxjs ÷ the AI SDK's beyond Node: ${ownCostRatio(cpu)?.toFixed(2)} (goal ≤ 0.33)`,
      );
    }
    if (process.argv.includes('--callgrind')) await countInstructions(consumers, quick, report);
    for (const adapter of adapters) report.note(`W9 ${adapter.framework}: ${adapter.label}`);
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
}

/**
 * `--callgrind`: the same scripts counted in instructions (callgrind, all threads, whole
 * process; median of 3 processes per cell, 1 with --quick), which the machine's load does
 * not inflate. One row per framework and module system, and the ratio as a note.
 */
async function countInstructions(
  consumers: ReadonlyMap<W9Adapter, string>,
  quick: boolean,
  report: Report,
): Promise<void> {
  if (!hasValgrind()) {
    report.note('W9 --callgrind: valgrind is not installed, no instruction rows');
    return;
  }
  for (const module of MODULES) {
    const medians = new Map<string, number>();
    for (const [adapter, dir] of consumers) {
      const file = `cold-${adapter.framework}.${module === 'cjs' ? 'cjs' : 'mjs'}`;
      const values: number[] = [];
      for (let k = 0; k < (quick ? 1 : 3); k++) values.push(await millionInstructions(dir, file));
      const row = quartiles(values);
      medians.set(adapter.framework, row.median);
      report.addRow({
        workload: 'W9',
        params: { module, from: 'process-start-instructions' },
        framework: adapter.framework,
        metric: 'million-instructions',
        ...row,
      });
    }
    const ratio = ownCostRatio((framework) => medians.get(framework));
    report.note(
      `W9 ${module} instructions, our cost beyond rxjs ÷ the AI SDK's beyond Node: ${ratio?.toFixed(2)} (goal ≤ 0.33)`,
    );
  }
}
