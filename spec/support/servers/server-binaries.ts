// Finds the server programs the Redis and PostgreSQL suites start, and installs Debian's
// packages when they are missing and we may (as root with apt-get, not under an explicit URL
// or RX_ADVISORS_NO_INSTALL=1), the way scripts/ensure-chromium.mjs installs Chromium. Never downloads builds of
// its own.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/** Where a program was found, or why it was not. */
export type Found = { ok: true; path: string } | { ok: false; reason: string };

const installed = new Set<string>();

function canInstall(): boolean {
  // As scripts/install-policy.mjs (which the pretest steps use): root with apt-get, unless
  // RX_ADVISORS_NO_INSTALL=1.
  if (process.env['RX_ADVISORS_NO_INSTALL'] === '1') return false;
  return process.getuid?.() === 0 && existsSync('/usr/bin/apt-get');
}

function aptInstall(debianPackage: string): void {
  if (installed.has(debianPackage)) return;
  installed.add(debianPackage);
  console.log(`[servers] installing Debian's ${debianPackage} package for the store tests…`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  // Jest runs spec files in parallel workers: take turns on dpkg's lock.
  const apt = (...args: string[]) =>
    execFileSync('flock', ['/tmp/rx-advisors-apt.lock', 'apt-get', ...args], {
      stdio: ['ignore', 'ignore', 'inherit'],
      env,
    });
  const install = () => apt('install', '-y', '-qq', '--no-install-recommends', debianPackage);
  try {
    install();
  } catch {
    apt('update', '-qq');
    install();
  }
}

function onPath(program: string): string | undefined {
  for (const folder of (process.env['PATH'] ?? '').split(':')) {
    const candidate = join(folder, program);
    if (folder !== '' && existsSync(candidate)) return candidate;
  }
  return undefined;
}

/** `redis-server`: on PATH, or from Debian's `redis-server` package. */
export function findRedisServer(): Found {
  const found = onPath('redis-server');
  if (found !== undefined) return { ok: true, path: found };
  if (!canInstall())
    return { ok: false, reason: 'no redis-server on PATH (apt-get install redis-server)' };
  try {
    aptInstall('redis-server');
  } catch (error) {
    return { ok: false, reason: `apt-get install redis-server failed: ${String(error)}` };
  }
  const after = onPath('redis-server');
  return after === undefined
    ? { ok: false, reason: 'redis-server still missing after apt-get install' }
    : { ok: true, path: after };
}

/** The folder holding `initdb` and `postgres`: Debian keeps them in /usr/lib/postgresql/<major>/bin. */
export function findPostgresBin(): Found {
  const fromEnv = process.env['PG_BIN'];
  if (fromEnv !== undefined && existsSync(join(fromEnv, 'postgres'))) {
    return { ok: true, path: fromEnv };
  }
  const debian = debianPostgresBin();
  if (debian !== undefined) return { ok: true, path: debian };
  const initdb = onPath('initdb');
  if (initdb !== undefined && onPath('postgres') !== undefined) {
    return { ok: true, path: initdb.slice(0, -'/initdb'.length) };
  }
  if (!canInstall())
    return { ok: false, reason: 'no PostgreSQL server binaries (apt-get install postgresql)' };
  try {
    aptInstall('postgresql');
  } catch (error) {
    return { ok: false, reason: `apt-get install postgresql failed: ${String(error)}` };
  }
  const after = debianPostgresBin();
  return after === undefined
    ? { ok: false, reason: 'PostgreSQL binaries still missing after apt-get install' }
    : { ok: true, path: after };
}

function debianPostgresBin(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const majors = readdirSync(root)
    .filter((name) => /^\d+$/.test(name) && existsSync(join(root, name, 'bin', 'postgres')))
    .sort((a, b) => Number(b) - Number(a));
  return majors[0] === undefined ? undefined : join(root, majors[0], 'bin');
}

/**
 * PostgreSQL refuses to run as root. As root, run it as the `postgres` user Debian's
 * package creates (or `nobody` when there is none); otherwise as ourselves.
 */
export function postgresUser(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  for (const name of ['postgres', 'nobody']) {
    try {
      const uid = Number(execFileSync('id', ['-u', name], { encoding: 'utf8' }).trim());
      const gid = Number(execFileSync('id', ['-g', name], { encoding: 'utf8' }).trim());
      if (uid > 0) return { uid, gid };
    } catch {
      // no such user: try the next one
    }
  }
  return undefined;
}
