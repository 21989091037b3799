// Installs the benchmark's own dependencies (bench/package.json + bench/package-lock.json:
// the peers it compares against, such as @langchain/core) into bench/node_modules, with
// `npm ci` so the lock decides. Skips the install when bench/node_modules already matches
// the lock. Run by `npm run bench` and before `npm run lint` (tsc and ESLint check bench/).
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const bench = fileURLToPath(new URL('../bench', import.meta.url));
const installed = join(bench, 'node_modules', '.package-lock.json');

function lockedPackages(file) {
  const { packages } = JSON.parse(readFileSync(file, 'utf8'));
  return Object.entries(packages)
    .filter(([path]) => path !== '')
    .map(([path, entry]) => `${path}@${entry.version}`)
    .sort()
    .join('\n');
}

const upToDate =
  existsSync(installed) &&
  lockedPackages(installed) === lockedPackages(join(bench, 'package-lock.json'));
if (upToDate) process.exit(0);

console.log(
  "[bench] installing the benchmark's own dependencies (bench/package.json: @langchain/core…) into bench/node_modules",
);
execFileSync('npm', ['ci', '--no-audit', '--no-fund', '--loglevel=error'], {
  cwd: bench,
  stdio: 'inherit',
});
