// The package's entry points come from one list, scripts/entry-points.json. This module
// derives every copy of it: package.json `exports` / `typesVersions` / `main` / `module` /
// `types`, tsconfig.json `paths` and bench/tsconfig.bench.json `paths`. jest.config.ts builds its moduleNameMapper from the
// same JSON and spec/package reads it too.
//
//   node scripts/entry-points.mjs --write   rewrite package.json and tsconfig.json
//   node scripts/entry-points.mjs --check   exit 1 (and say what differs) when they disagree
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const packageName = 'rx-advisors';
const BENCH_TSCONFIG = 'bench/tsconfig.bench.json';

/**
 * The entry points: `name` is the import specifier, `source` the TypeScript file under lib/.
 * @returns {{ name: string, source: string }[]}
 */
export function readEntryPoints() {
  const list = JSON.parse(readFileSync(join(root, 'scripts', 'entry-points.json'), 'utf8'));
  for (const { name, source } of list.entryPoints) {
    if (name !== packageName && !name.startsWith(`${packageName}/`)) {
      throw new Error(
        `entry point ${name}: the name must be ${packageName} or start with ${packageName}/`,
      );
    }
    if (!/^lib\/.+\.ts$/.test(source)) {
      throw new Error(`entry point ${name}: the source ${source} must be a .ts file under lib/`);
    }
  }
  return list.entryPoints;
}

/** `./openai` for `rx-advisors/openai`, `.` for the root. */
export function subpathOf(name) {
  return name === packageName ? '.' : `./${name.slice(packageName.length + 1)}`;
}

/** The built file of a source: `dist/<format>/<path>` with `.js` or `.d.ts`. */
export function builtFile(source, format, kind) {
  const stem = source.replace(/^lib\//, '').replace(/\.ts$/, '');
  return `./dist/${format}/${stem}${kind === 'types' ? '.d.ts' : '.js'}`;
}

/** The package.json fields derived from the list, in the order they appear in the file. */
export function packageFields(entryPoints = readEntryPoints()) {
  const rootEntry = entryPoints.find((entry) => entry.name === packageName);
  if (rootEntry === undefined) throw new Error(`entry points: ${packageName} itself is missing`);
  const exports = {};
  for (const { name, source } of entryPoints) {
    exports[subpathOf(name)] = {
      import: { types: builtFile(source, 'esm', 'types'), default: builtFile(source, 'esm', 'js') },
      require: {
        types: builtFile(source, 'cjs', 'types'),
        default: builtFile(source, 'cjs', 'js'),
      },
    };
  }
  exports['./package.json'] = './package.json';
  // node10 resolution (moduleResolution "node", TypeScript before 4.7) ignores `exports`:
  // typesVersions maps each subpath to its CommonJS declarations.
  const subpaths = {};
  for (const { name, source } of entryPoints) {
    if (name === packageName) continue;
    subpaths[subpathOf(name).slice(2)] = [builtFile(source, 'cjs', 'types')];
  }
  return {
    main: builtFile(rootEntry.source, 'cjs', 'js'),
    module: builtFile(rootEntry.source, 'esm', 'js'),
    types: builtFile(rootEntry.source, 'cjs', 'types'),
    typesVersions: { '*': subpaths },
    exports,
  };
}

/** The tsconfig.json `paths` derived from the list. */
export function tsconfigPaths(entryPoints = readEntryPoints()) {
  return Object.fromEntries(entryPoints.map(({ name, source }) => [name, [`./${source}`]]));
}

/**
 * The bench's tsconfig `paths` (bench/tsconfig.bench.json): every entry point resolves to
 * the built CommonJS file, what a CommonJS user runs.
 */
export function benchPaths(entryPoints = readEntryPoints()) {
  return Object.fromEntries(
    entryPoints.map(({ name, source }) => [name, [`.${builtFile(source, 'cjs', 'js')}`]]),
  );
}

/** Jest's moduleNameMapper entries derived from the list (exact names, anchored). */
export function jestMapper(entryPoints = readEntryPoints()) {
  return Object.fromEntries(
    entryPoints.map(({ name, source }) => [
      `^${name.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}$`,
      `<rootDir>/${source}`,
    ]),
  );
}

function readJson(file) {
  return JSON.parse(readFileSync(join(root, file), 'utf8'));
}

/** The differences between the list and its copies, as sentences; empty when they agree. */
export function differences() {
  const problems = [];
  const manifest = readJson('package.json');
  for (const [field, expected] of Object.entries(packageFields())) {
    if (JSON.stringify(manifest[field]) !== JSON.stringify(expected)) {
      problems.push(`package.json "${field}" differs from scripts/entry-points.json`);
    }
  }
  const tsconfig = readJson('tsconfig.json');
  if (JSON.stringify(tsconfig.compilerOptions.paths) !== JSON.stringify(tsconfigPaths())) {
    problems.push('tsconfig.json "compilerOptions.paths" differs from scripts/entry-points.json');
  }
  const bench = readJson(BENCH_TSCONFIG);
  if (JSON.stringify(bench.compilerOptions.paths) !== JSON.stringify(benchPaths())) {
    problems.push(
      `${BENCH_TSCONFIG} "compilerOptions.paths" differs from scripts/entry-points.json`,
    );
  }
  return problems;
}

/** Rewrites package.json and tsconfig.json from the list, keeping every other field in place. */
export function write() {
  const manifest = readJson('package.json');
  const fields = packageFields();
  const next = {};
  for (const [key, value] of Object.entries(manifest)) {
    if (key in fields) continue;
    next[key] = value;
    // The derived fields go right after "engines", where package.json readers look for them.
    if (key === 'engines') Object.assign(next, fields);
  }
  if (!('exports' in next)) Object.assign(next, fields);
  writeFileSync(join(root, 'package.json'), JSON.stringify(next, null, 2) + '\n');
  const tsconfig = readJson('tsconfig.json');
  tsconfig.compilerOptions.paths = tsconfigPaths();
  writeFileSync(join(root, 'tsconfig.json'), JSON.stringify(tsconfig, null, 2) + '\n');
  const bench = readJson(BENCH_TSCONFIG);
  bench.compilerOptions.paths = benchPaths();
  writeFileSync(join(root, BENCH_TSCONFIG), JSON.stringify(bench, null, 2) + '\n');
  const prettier = join(root, 'node_modules', 'prettier', 'bin', 'prettier.cjs');
  execFileSync(
    process.execPath,
    [prettier, '--write', 'package.json', 'tsconfig.json', BENCH_TSCONFIG],
    {
      cwd: root,
      stdio: 'ignore',
    },
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (process.argv.includes('--write')) {
    write();
    console.log('package.json and tsconfig.json now follow scripts/entry-points.json');
  } else {
    const problems = differences();
    for (const problem of problems) console.error(problem);
    if (problems.length > 0) {
      console.error('Run `node scripts/entry-points.mjs --write` to derive them again.');
      process.exit(1);
    }
    console.log('package.json and tsconfig.json agree with scripts/entry-points.json');
  }
}
