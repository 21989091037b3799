// Builds the published folder: dist/esm (ES modules and their declarations) and dist/cjs
// (CommonJS and its declarations). Each folder has a package.json with its "type", so
// TypeScript reads dist/esm/*.d.ts as ES modules and dist/cjs/*.d.ts as CommonJS: an ESM
// consumer then sees the SDKs' ESM types, a CommonJS consumer their CommonJS types.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { builtFile, readEntryPoints } from './entry-points.mjs';

const root = new URL('..', import.meta.url).pathname;
const dist = join(root, 'dist');
const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');

function compile(args) {
  execFileSync(
    process.execPath,
    [tsc, '-p', join(root, 'tsconfig.build.json'), '--declaration', ...args],
    { stdio: 'inherit' },
  );
}

rmSync(dist, { recursive: true, force: true });
compile(['--outDir', join(dist, 'esm'), '--module', 'ESNext', '--moduleResolution', 'Bundler']);
compile(['--outDir', join(dist, 'cjs'), '--module', 'CommonJS', '--moduleResolution', 'Node10']);
// The one per-format loader (lib/schema/load-ajv.ts): it loads ajv synchronously on first
// use with `require`, which an ES module does not have. Its ES module build gets one from
// `createRequire(import.meta.url)`, on the first line so the source map still holds.
const ajvLoader = join(dist, 'esm', 'schema', 'load-ajv.js');
const loaderSource = readFileSync(ajvLoader, 'utf8');
if (!loaderSource.includes("require('ajv')")) {
  throw new Error(`${ajvLoader}: no require('ajv') to give a require to`);
}
writeFileSync(
  ajvLoader,
  "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url); " +
    loaderSource,
);
for (const [folder, type] of [
  ['esm', 'module'],
  ['cjs', 'commonjs'],
]) {
  mkdirSync(join(dist, folder), { recursive: true });
  writeFileSync(join(dist, folder, 'package.json'), JSON.stringify({ type }) + '\n');
}
for (const { name, source } of readEntryPoints()) {
  for (const format of ['esm', 'cjs']) {
    for (const kind of ['js', 'types']) {
      const file = join(root, builtFile(source, format, kind));
      if (!existsSync(file))
        throw new Error(`entry point ${name}: the build did not write ${file}`);
    }
  }
}
console.log('built dist/esm and dist/cjs, each with its declarations');
