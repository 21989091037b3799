// Runs before `npm test`: the browser test drives Debian's Chromium (/usr/bin/chromium)
// through playwright-core. On a fresh machine where we are root with apt-get, install it;
// elsewhere say what to do. Never downloads a browser build of its own.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const path = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (existsSync(path)) process.exit(0);

const canInstall =
  process.getuid?.() === 0 && existsSync('/usr/bin/apt-get') && !process.env.CHROMIUM_PATH;
if (!canInstall) {
  console.warn(
    `[pretest] No Chromium at ${path}: the browser test will fail. ` +
      "Install Debian's package (sudo apt-get install -y chromium) or set CHROMIUM_PATH.",
  );
  process.exit(0);
}

console.log("[pretest] installing Debian's chromium package for the browser test…");
const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
execFileSync('apt-get', ['install', '-y', '-qq', 'chromium'], {
  stdio: ['ignore', 'ignore', 'inherit'],
  env,
});
console.log(`[pretest] chromium installed at ${path}`);
