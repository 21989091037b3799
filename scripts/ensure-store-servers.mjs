// Runs before `npm test`: the Redis and PostgreSQL suites start private servers from
// Debian's packages (redis-server; initdb/postgres from /usr/lib/postgresql/<major>/bin).
// On a fresh machine where we are root with apt-get, install the missing ones, the way
// scripts/ensure-chromium.mjs installs Chromium; elsewhere say what to do. Skipped for a
// store whose URL (REDIS_URL, DATABASE_URL) is set. The harness (spec/support/servers/)
// does the same when run without this step.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const onPath = (program) =>
  (process.env.PATH ?? '').split(':').some((dir) => dir !== '' && existsSync(join(dir, program)));
const hasPostgres = () =>
  existsSync('/usr/lib/postgresql') &&
  readdirSync('/usr/lib/postgresql').some((major) =>
    existsSync(join('/usr/lib/postgresql', major, 'bin', 'postgres')),
  );

const missing = [];
if (!process.env.REDIS_URL && !onPath('redis-server')) missing.push('redis-server');
if (!process.env.DATABASE_URL && !hasPostgres()) missing.push('postgresql');
if (missing.length === 0) process.exit(0);

// As for Chromium: the system package manager runs only in CI (CI=true), as root.
const inCi = process.env.CI === 'true' || process.env.CI === '1';
const canInstall = inCi && process.getuid?.() === 0 && existsSync('/usr/bin/apt-get');
if (!canInstall) {
  console.warn(
    `[pretest] Missing ${missing.join(' and ')}: the Redis/PostgreSQL suites will skip ` +
      `(and fail under CI=true); nothing is installed outside CI or without root. Install ` +
      `Debian's packages (sudo apt-get install -y ${missing.join(' ')}) or set REDIS_URL / ` +
      `DATABASE_URL.`,
  );
  process.exit(0);
}

console.log(`[pretest] installing Debian's ${missing.join(' and ')} for the store tests…`);
const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
execFileSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...missing], {
  stdio: ['ignore', 'ignore', 'inherit'],
  env,
});
console.log(`[pretest] installed ${missing.join(' and ')}`);
