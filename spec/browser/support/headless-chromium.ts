// Launching Debian's Chromium headless for the browser tests (the same flags as the demo's
// specs). It never downloads a browser. Without one (`npm test` installs it as root with
// apt-get, scripts/ensure-chromium.mjs) the browser suites skip with the reason, counted in
// the closing summary line; under CI=true they run and fail, saying how to get one.
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { describeWhen, isCi, type Requirement } from '../../support/skip-marker';

/** The Chromium the browser tests drive: `CHROMIUM_PATH`, else Debian's `/usr/bin/chromium`. */
export const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';

/** Whether the browser suites can run here; under CI=true always "yes" (a missing browser fails). */
export function chromiumRequirement(
  path: string = CHROMIUM,
  env: NodeJS.ProcessEnv = process.env,
): Requirement {
  if (existsSync(path) || isCi(env)) return { available: true, reason: `Chromium at ${path}` };
  return {
    available: false,
    reason: `no Chromium at ${path} (apt-get install -y chromium, or set CHROMIUM_PATH)`,
  };
}

/** `describe` for a browser suite: skipped, with the reason, when there is no Chromium. */
export const describeWithChromium = describeWhen(chromiumRequirement());

/**
 * Launches headless Chromium through playwright-core.
 * @returns The browser (close it in `afterAll`).
 */
export async function launchHeadlessChromium(
  args: readonly string[] = [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `No Chromium at ${CHROMIUM}. Install Debian's package (apt-get install -y chromium; .ci/run does) or set CHROMIUM_PATH.`,
    );
  }
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [...args],
  });
}
