import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gone } from '../support/process-alive';

const script = join(__dirname, '..', '..', 'scripts', 'ci-test.mjs');

/**
 * Runs scripts/ci-test.mjs in a folder whose `npm test` is `test.cjs`: it writes the results
 * file it is given (`--outputFile=…`), then does what `body` says.
 */
async function ciTest(
  folder: string,
  body: string,
): Promise<{ code: number | null; stderr: string }> {
  writeFileSync(
    join(folder, 'package.json'),
    JSON.stringify({ name: 'watchdog-probe', private: true, scripts: { test: 'node test.cjs' } }),
  );
  writeFileSync(
    join(folder, 'test.cjs'),
    `const out = process.argv.find((a) => a.startsWith('--outputFile=')).slice(13);
     require('node:fs').writeFileSync(out, '{}');
     ${body}`,
  );
  const child = spawn(process.execPath, [script, 'results.json'], {
    cwd: folder,
    env: { ...process.env, CI_TEST_GRACE_SECONDS: '1' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (data: Buffer) => (stderr += data.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { code, stderr };
}

describe('scripts/ci-test.mjs (CI’s test step)', () => {
  let folder: string;
  beforeEach(() => {
    folder = mkdtempSync(join(tmpdir(), 'ci-test-'));
  });
  afterEach(() => rmSync(folder, { recursive: true, force: true }));

  it('exits as the test run does', async () => {
    const passed = await ciTest(folder, 'process.exitCode = 0;');
    expect(passed.code).toBe(0);
    expect(passed.stderr).not.toContain('did not exit');
    expect((await ciTest(folder, 'process.exitCode = 3;')).code).not.toBe(0);
  }, 60_000);

  it('ends a run that stays alive after writing its results, with what it started, and fails', async () => {
    const { code, stderr } = await ciTest(
      folder,
      `const child = require('node:child_process').spawn(process.execPath,
         ['-e', 'setInterval(() => {}, 1000)'], { stdio: ['pipe', 'ignore', 'ignore'] });
       require('node:fs').writeFileSync('leaked.pid', String(child.pid));`,
    );
    expect(code).toBe(1);
    expect(stderr).toContain('did not exit 1 s after writing its results');
    const leaked = Number(readFileSync(join(folder, 'leaked.pid'), 'utf8'));
    expect(await gone(leaked)).toBe(true);
  }, 60_000);
});
