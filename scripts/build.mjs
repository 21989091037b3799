// Builds the published folder: dist/esm (ES modules), dist/cjs (CommonJS), dist/types (declarations).
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const dist = join(root, 'dist');
const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');

function compile(args) {
  execFileSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json'), ...args], {
    stdio: 'inherit',
  });
}

rmSync(dist, { recursive: true, force: true });
compile(['--outDir', join(dist, 'esm'), '--module', 'ESNext', '--moduleResolution', 'Bundler']);
compile(['--outDir', join(dist, 'cjs'), '--module', 'CommonJS', '--moduleResolution', 'Node10']);
compile([
  '--outDir',
  join(dist, 'types'),
  '--declaration',
  '--emitDeclarationOnly',
  '--sourceMap',
  'false',
]);
for (const [folder, type] of [
  ['esm', 'module'],
  ['cjs', 'commonjs'],
]) {
  mkdirSync(join(dist, folder), { recursive: true });
  writeFileSync(join(dist, folder, 'package.json'), JSON.stringify({ type }) + '\n');
}
console.log('built dist/esm, dist/cjs and dist/types');
