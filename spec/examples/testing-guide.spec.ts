import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

// Runs the examples of docs/testing.md: each ```ts block is transpiled to CommonJS and
// evaluated here, at collection time, so its describe / it / beforeEach register with Jest
// and its imports resolve like this file's (rx-advisors → lib/ through the Jest mapper).
// The type check of the same blocks is scripts/check-snippets.mjs.
const root = join(__dirname, '..', '..');
const page = readFileSync(join(root, 'docs', 'testing.md'), 'utf8');
const blocks = [...page.matchAll(/^```ts(?: program)?\n([\s\S]*?)^```$/gm)].map(
  (match) => match[1],
);

describe('docs/testing.md', () => {
  it('has the examples this spec runs', () => {
    expect(blocks.length).toBeGreaterThanOrEqual(5);
  });

  blocks.forEach((code, index) => {
    describe(`example ${index + 1}`, () => {
      const { outputText } = ts.transpileModule(code, {
        compilerOptions: {
          module: ts.ModuleKind.CommonJS,
          target: ts.ScriptTarget.ES2022,
          esModuleInterop: true,
        },
      });
      // The page's own code, evaluated on purpose, in this file's realm and module scope.
      // eslint-disable-next-line @typescript-eslint/no-implied-eval
      const run = new Function(
        'require',
        'exports',
        'describe',
        'it',
        'beforeEach',
        'expect',
        outputText,
      ) as (...args: unknown[]) => void;
      run(require, {}, describe, it, beforeEach, expect);
    });
  });
});
