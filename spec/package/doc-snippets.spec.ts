import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

// The ```ts examples of README.md, docs/*.md and the TSDoc @examples under lib/ compile
// (scripts/check-snippets.mjs; fragments say ```ts partial, complete programs ```ts program
// and are checked without the prelude). The checker's own output names each broken snippet
// by page and line.
const root = join(__dirname, '..', '..');

function checkSnippets(...args: string[]): { output: string; failed: boolean } {
  try {
    const output = execFileSync(
      process.execPath,
      [join(root, 'scripts', 'check-snippets.mjs'), ...args],
      { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
    );
    return { output, failed: false };
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    return { output: `${stdout ?? ''}${stderr ?? ''}`, failed: true };
  }
}

describe('the documentation examples', () => {
  it('type-check, except those marked partial', () => {
    const { output, failed } = checkSnippets();
    expect(output).toMatch(
      /^\d+ snippets type-checked \(\d+ as repository files, \d+ as complete programs without the prelude\), \d+ marked partial and skipped\n$/,
    );
    expect(failed).toBe(false);
    // Two tsc runs over lib/ and ~340 snippets: minutes on a loaded two-core machine.
  }, 300_000);
});

describe('the snippet checker', () => {
  const dir = join(root, 'test-output', 'snippet-checker', 'docs');
  const page = (name: string, text: string): string => {
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, name), text);
    return join('test-output', 'snippet-checker', 'docs', name);
  };
  afterAll(() => rmSync(join(root, 'test-output', 'snippet-checker'), { recursive: true }));

  it('fails a program that leans on the prelude, and a page whose first example is unmarked', () => {
    const program = page(
      'leans-on-prelude.md',
      [
        '# A page',
        '',
        '```ts program',
        "import { ChatClient } from 'rx-advisors';",
        '',
        'ChatClient.builder(model).defaultTools(getTime).build();',
        '```',
        '',
      ].join('\n'),
    );
    const unmarked = page(
      'unmarked.md',
      ['# A page', '', '```ts', "client.prompt('Hi');", '```', ''].join('\n'),
    );
    const { output, failed } = checkSnippets('--page', program, '--page', unmarked);
    expect(failed).toBe(true);
    expect(output).toContain(`${program}:6:20 error TS2304: Cannot find name 'model'.`);
    expect(output).toContain(`${program}:6:40 error TS2304: Cannot find name 'getTime'.`);
    expect(output).toContain(
      `${unmarked}:4: a page's first example must run as written: mark it \`\`\`ts program`,
    );
  }, 300_000);
});
