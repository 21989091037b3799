// Runs before `npm test`: the Redis and PostgreSQL suites start private servers from
// Debian's packages (redis-server; initdb/postgres from /usr/lib/postgresql/<major>/bin).
// On a fresh machine where we are root with apt-get (scripts/install-policy.mjs), install the
// missing ones, the way scripts/ensure-chromium.mjs installs Chromium; elsewhere say what to do. Skipped for a
// store whose URL (REDIS_URL, DATABASE_URL) is set. The harness (spec/support/servers/)
// does the same when run without this step.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { installDecision } from './install-policy.mjs';

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
// spec/run/sqlite/sqlite-run-journal-fsync.spec.ts counts a child's fsyncs with strace.
if (!onPath('strace')) missing.push('strace');
if (missing.length === 0) process.exit(0);

const decision = installDecision();
if (!decision.install) {
  console.warn(
    `[pretest] Missing ${missing.join(' and ')} (${decision.why}, so nothing is installed): ` +
      `the Redis/PostgreSQL suites will be skipped, counted in the closing summary line ` +
      `(under CI=true that fails the run). Install Debian's packages ` +
      `(apt-get install -y ${missing.join(' ')}) or set REDIS_URL / DATABASE_URL.`,
  );
  process.exit(0);
}

console.log(`[pretest] installing Debian's ${missing.join(' and ')} for the store tests…`);
const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
try {
  execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
  execFileSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...missing], {
    stdio: ['ignore', 'ignore', 'inherit'],
    env,
  });
  console.log(`[pretest] installed ${missing.join(' and ')}`);
} catch (error) {
  // Offline, or no such package: the store suites skip (and fail under CI=true).
  console.warn(
    `[pretest] apt-get install failed (${String(error)}); the store suites will be skipped.`,
  );
}
