// When `npm test`'s pretest steps may install a system package the tests need (Chromium,
// redis-server, PostgreSQL): as root with apt-get, on CI or off it (a fresh container is the
// case the README's `npm ci && npm test` must cover), unless RX_ADVISORS_NO_INSTALL=1.
// Anywhere else nothing is installed: the suites that need the package skip, with the reason
// and their count in the closing summary line, and under CI=true a skip fails the run.
import { existsSync } from 'node:fs';

/**
 * @param {NodeJS.ProcessEnv} env
 * @param {{ uid?: number, hasApt?: boolean }} [machine]
 * @returns {{ install: true } | { install: false, why: string }}
 */
export function installDecision(env = process.env, machine = {}) {
  const uid = machine.uid ?? process.getuid?.();
  const hasApt = machine.hasApt ?? existsSync('/usr/bin/apt-get');
  if (env.RX_ADVISORS_NO_INSTALL === '1')
    return { install: false, why: 'RX_ADVISORS_NO_INSTALL=1' };
  if (uid !== 0) return { install: false, why: 'not running as root' };
  if (!hasApt) return { install: false, why: 'no apt-get on this machine' };
  return { install: true };
}
