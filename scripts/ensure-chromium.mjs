// Runs before `npm test` (pretest). The browser test (spec/browser/) drives Debian's
// Chromium (/usr/bin/chromium, or CHROMIUM_PATH) through playwright-core; it never
// downloads a browser build of its own. This script only ever installs Chromium in CI
// (CI=true), as root, with apt-get; anywhere else it says how to get the browser test to
// run and leaves the machine alone.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const path = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (existsSync(path)) process.exit(0);

const inCi = process.env.CI === 'true' || process.env.CI === '1';
const isRoot = process.getuid?.() === 0;
const hasApt = existsSync('/usr/bin/apt-get');
if (!inCi || !isRoot || !hasApt || process.env.CHROMIUM_PATH) {
  const why = !inCi
    ? 'not in CI (CI=true), so nothing is installed'
    : !isRoot
      ? 'not running as root'
      : !hasApt
        ? 'no apt-get on this machine'
        : 'CHROMIUM_PATH is set';
  console.warn(
    [
      `[pretest] No Chromium at ${path}: the browser test (spec/browser/) will fail; ${why}.`,
      '[pretest] To run it: install a Chromium (Debian/Ubuntu: sudo apt-get install -y chromium)',
      '[pretest] or point CHROMIUM_PATH at one, then: npx jest spec/browser',
      '[pretest] Everything else runs without it; to leave it out: npx jest --testPathIgnorePatterns spec/browser',
    ].join('\n'),
  );
  process.exit(0);
}

console.log(
  `[pretest] CI, root, no Chromium at ${path}: installing Debian's chromium package for the browser test (apt-get update && apt-get install -y chromium)…`,
);
const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
execFileSync('apt-get', ['install', '-y', '-qq', 'chromium'], {
  stdio: ['ignore', 'ignore', 'inherit'],
  env,
});
console.log(`[pretest] chromium installed at ${path}`);
