import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gone } from './process-alive';
import { runReleasedTogether } from './released-together';

const script = join(__dirname, 'released-child.ts');

describe('runReleasedTogether (the two-process tests harness)', () => {
  let folder: string;
  const pidOf = (name: string) => Number(readFileSync(join(folder, name), 'utf8'));
  beforeEach(() => {
    folder = mkdtempSync(join(tmpdir(), 'released-'));
  });
  afterEach(() => rmSync(folder, { recursive: true, force: true }));

  it('releases every child and returns their outputs in order', async () => {
    const outputs = await runReleasedTogether(
      script,
      [
        [join(folder, 'a'), 'ok'],
        [join(folder, 'b'), 'ok'],
      ],
      60_000,
    );
    expect(outputs).toEqual(['ready\ndone ok\n', 'ready\ndone ok\n']);
  }, 70_000);

  it('kills the child waiting for its release when another fails before it is ready', async () => {
    const run = runReleasedTogether(
      script,
      [
        [join(folder, 'waits'), 'ok'],
        [join(folder, 'fails'), 'fail-before-ready', join(folder, 'waits')],
      ],
      60_000,
    );
    await expect(run).rejects.toThrow('child exited 1');
    expect(await gone(pidOf('waits'))).toBe(true);
  }, 70_000);

  it('kills a child that hangs past the timeout', async () => {
    const run = runReleasedTogether(
      script,
      [
        [join(folder, 'ok'), 'ok'],
        [join(folder, 'hangs'), 'hang-after-go'],
      ],
      8_000,
    );
    await expect(run).rejects.toThrow('child exited SIGKILL');
    expect(await gone(pidOf('hangs'))).toBe(true);
  }, 70_000);
});
