// Runs before `npm test` (pretest). The browser test (spec/browser/) drives Debian's
// Chromium (/usr/bin/chromium, or CHROMIUM_PATH) through playwright-core; it never
// downloads a browser build of its own. This script installs Chromium with apt-get when
// scripts/install-policy.mjs allows it (root with apt-get, not RX_ADVISORS_NO_INSTALL=1);
// anywhere else it says how to get the browser suites to run, and they skip (counted, with
// the reason, in the closing summary line; under CI=true the skip fails the run).
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { installDecision } from './install-policy.mjs';

const path = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (existsSync(path)) process.exit(0);

const decision = installDecision();
if (!decision.install || process.env.CHROMIUM_PATH) {
  const why = decision.install ? 'CHROMIUM_PATH is set' : decision.why;
  console.warn(
    [
      `[pretest] No Chromium at ${path} (${why}, so nothing is installed): the browser suites`,
      '[pretest] (spec/browser/) will be skipped, counted in the closing summary line; under CI=true',
      '[pretest] that fails the run. To run them: apt-get install -y chromium, or set CHROMIUM_PATH.',
    ].join('\n'),
  );
  process.exit(0);
}

console.log(
  `[pretest] root with apt-get, no Chromium at ${path}: installing Debian's chromium package for the browser test (apt-get update && apt-get install -y chromium)…`,
);
const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
try {
  execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
  execFileSync('apt-get', ['install', '-y', '-qq', 'chromium'], {
    stdio: ['ignore', 'ignore', 'inherit'],
    env,
  });
  console.log(`[pretest] chromium installed at ${path}`);
} catch (error) {
  // Offline, or no such package: the browser suites skip (and fail under CI=true).
  console.warn(
    `[pretest] apt-get install chromium failed (${String(error)}); the browser suites will be skipped.`,
  );
}
