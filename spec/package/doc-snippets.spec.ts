import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

// The ```ts examples of README.md, docs/*.md and the TSDoc @examples under lib/ compile
// (scripts/check-snippets.mjs; fragments say ```ts partial). The checker's own output
// names each broken snippet by page and line.
const root = join(__dirname, '..', '..');

describe('the documentation examples', () => {
  it('type-check, except those marked partial', () => {
    let output: string;
    try {
      output = execFileSync(process.execPath, [join(root, 'scripts', 'check-snippets.mjs')], {
        cwd: root,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
      });
    } catch (error) {
      const { stdout, stderr } = error as { stdout?: string; stderr?: string };
      output = `${stdout ?? ''}${stderr ?? ''}`;
    }
    expect(output).toMatch(
      /^\d+ snippets type-checked \(\d+ as repository files\), \d+ marked partial and skipped\n$/,
    );
  }, 120_000);
});
