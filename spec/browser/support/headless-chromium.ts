// Launching Debian's Chromium headless for the browser tests (the same flags as the demo's
// specs). It never downloads a browser and never skips: without one the test fails and says
// how to get one (`npm test` installs it in CI, scripts/ensure-chromium.mjs).
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

/** The Chromium the browser tests drive: `CHROMIUM_PATH`, else Debian's `/usr/bin/chromium`. */
export const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';

/**
 * Launches headless Chromium through playwright-core.
 * @returns The browser (close it in `afterAll`).
 */
export async function launchHeadlessChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `No Chromium at ${CHROMIUM}. Install Debian's package (apt-get install -y chromium; .ci/run does) or set CHROMIUM_PATH.`,
    );
  }
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}
