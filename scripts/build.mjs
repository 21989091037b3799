// Builds the published folder: dist/esm (ES modules and their declarations) and dist/cjs
// (CommonJS and its declarations). Each folder has a package.json with its "type", so
// TypeScript reads dist/esm/*.d.ts as ES modules and dist/cjs/*.d.ts as CommonJS: an ESM
// consumer then sees the SDKs' ESM types, a CommonJS consumer their CommonJS types.
//
// The JavaScript is bundled (docs/architecture.md, "Cold start"): one file per entry point
// and format, plus shared chunks, instead of one file per module of lib/ (~210 for the root
// entry point, whose loading was most of our cold start). esbuild bundles the ES modules
// with code splitting, so a module two entry points use (a class such as ProviderError) is
// in one chunk both import: it exists once and `instanceof` holds across entry points. The
// CommonJS build is that same graph converted file by file (esbuild has no CommonJS
// splitting): the same entry files and chunks, `import` turned into `require`. Every
// package (rxjs, the SDKs, ajv) stays external. Declarations still come from tsc, one per
// module as before.
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { build } from 'esbuild';
import { builtFile, readEntryPoints } from './entry-points.mjs';

const root = new URL('..', import.meta.url).pathname;
const dist = join(root, 'dist');
const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
const tsconfig = join(root, 'tsconfig.build.json');
// The language level of the output: tsconfig.json's `target`.
const target = 'es2022';

/**
 * Declarations only: tsc writes one `.d.ts` per module of lib/, as the package always had.
 * It runs beside the bundling (a promise of its end).
 */
function declarations(args) {
  const options = ['--declaration', '--emitDeclarationOnly', '--sourceMap', 'false'];
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [tsc, '-p', tsconfig, ...options, '--inlineSources', 'false', ...args],
      (error, stdout, stderr) => {
        process.stdout.write(stdout);
        process.stderr.write(stderr);
        if (error) reject(new Error(`tsc ${args.join(' ')} failed`));
        else resolve();
      },
    );
  });
}

/**
 * lib/schema/load-ajv.ts loads ajv synchronously on first use with `require`, which an ES
 * module does not have: in the ES module build it gets one from
 * `createRequire(import.meta.url)`, on its first line so the source map still holds (the
 * CommonJS conversion below turns `import.meta.url` into `__filename`). The build fails if
 * the file no longer has the `require('ajv')` this is for.
 */
const requireForAjv = {
  name: 'require-for-ajv',
  setup(esbuild) {
    esbuild.onLoad({ filter: /[\\/]lib[\\/]schema[\\/]load-ajv\.ts$/ }, (args) => {
      const source = readFileSync(args.path, 'utf8');
      if (!source.includes("require('ajv')")) {
        throw new Error(`${args.path}: no require('ajv') to give a require to`);
      }
      return {
        loader: 'ts',
        contents:
          "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url); " +
          source,
      };
    });
  },
};

/** The class names lib/ declares. */
function declaredClasses(dir = join(root, 'lib')) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return declaredClasses(path);
    if (!entry.name.endsWith('.ts')) return [];
    return [...readFileSync(path, 'utf8').matchAll(/\bclass ([A-Za-z_$][\w$]*)/g)].map((m) => m[1]);
  });
}
const libClasses = new Set(declaredClasses());

/**
 * A bundle writes each class as `var Name = class {`, whose `name` is still `Name`; but a
 * class that refers to itself becomes `var Name = class _Name {`, named `_Name`, and error
 * classes take their `name` from `new.target.name`. esbuild's `keepNames` would fix it by
 * wrapping every function too, a call on every evaluation of each arrow function (per
 * call, some per chunk). Instead, those classes get their name back first thing in their
 * body (appended to the line, so the source map holds). The build fails on a class esbuild
 * renamed (two modules of one file with the same class name): rename one in lib/.
 */
function keepClassNames(file) {
  const lines = readFileSync(file, 'utf8').split('\n');
  let changed = false;
  lines.forEach((line, index) => {
    const match = /^var ([\w$]+) = class(?: (?!extends\b)([\w$]+))?\b/.exec(line);
    if (match === null) return;
    const [, name, inner] = match;
    if (!libClasses.has(name)) {
      throw new Error(`${file}: the bundle renamed a class to ${name}; rename one in lib/`);
    }
    if (inner === undefined || inner === name) return;
    if (inner !== `_${name}` || !line.endsWith('{')) {
      throw new Error(`${file}:${index + 1}: class ${name} is written as ${inner}`);
    }
    lines[index] =
      `${line} static { Object.defineProperty(this, "name", { value: ${JSON.stringify(name)}, ` +
      'configurable: true }); }';
    changed = true;
  });
  if (changed) writeFileSync(file, lines.join('\n'));
}

/** The `.js` files under `dir`, recursively. */
function scripts(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return scripts(path);
    return entry.name.endsWith('.js') ? [path] : [];
  });
}

const shared = {
  platform: 'node',
  target,
  sourcemap: true,
  sourcesContent: true,
  logLevel: 'warning',
};

rmSync(dist, { recursive: true, force: true });
const typed = Promise.all([
  declarations([
    '--outDir',
    join(dist, 'esm'),
    '--module',
    'ESNext',
    '--moduleResolution',
    'Bundler',
  ]),
  declarations([
    '--outDir',
    join(dist, 'cjs'),
    '--module',
    'CommonJS',
    '--moduleResolution',
    'Node10',
  ]),
]);

const entryPoints = readEntryPoints();
await build({
  ...shared,
  entryPoints: entryPoints.map(({ source }) => join(root, source)),
  outbase: join(root, 'lib'),
  outdir: join(dist, 'esm'),
  entryNames: '[dir]/[name]',
  chunkNames: 'chunks/[name]-[hash]',
  bundle: true,
  splitting: true,
  format: 'esm',
  packages: 'external',
  tsconfig,
  plugins: [requireForAjv],
});
for (const file of scripts(join(dist, 'esm'))) keepClassNames(file);
// The CommonJS build: each file of the ES module build (entry points and chunks) converted
// on its own, at the same path. It runs before dist/esm/package.json says "module", so
// esbuild reads these files as TypeScript's CommonJS output would: a default import of a
// CommonJS package is its `exports.default` when it sets `__esModule`, as tsc's
// `esModuleInterop` does. Their source maps are chained back to lib/.
await build({
  ...shared,
  entryPoints: scripts(join(dist, 'esm')),
  outbase: join(dist, 'esm'),
  outdir: join(dist, 'cjs'),
  format: 'cjs',
  define: { 'import.meta.url': '__filename' },
});

await typed;
for (const [folder, type] of [
  ['esm', 'module'],
  ['cjs', 'commonjs'],
]) {
  mkdirSync(join(dist, folder), { recursive: true });
  writeFileSync(join(dist, folder, 'package.json'), JSON.stringify({ type }) + '\n');
}
for (const { name, source } of entryPoints) {
  for (const format of ['esm', 'cjs']) {
    for (const kind of ['js', 'types']) {
      const file = join(root, builtFile(source, format, kind));
      if (!existsSync(file))
        throw new Error(`entry point ${name}: the build did not write ${file}`);
    }
  }
}
const chunks = readdirSync(join(dist, 'esm', 'chunks')).filter((file) => file.endsWith('.js'));
console.log(
  `built dist/esm and dist/cjs: ${entryPoints.length} entry points and ${chunks.length} shared chunks each, with declarations (${relative(root, dist)})`,
);
