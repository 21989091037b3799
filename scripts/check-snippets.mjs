// Type-checks the TypeScript examples of the documentation: the ```ts blocks of README.md
// and docs/*.md, and the ```ts blocks inside TSDoc `@example`s under lib/. Each snippet is
// written as its own module into node_modules/.cache/rx-advisors-snippets and compiled with
// the repository's tsconfig.json (so `rx-advisors/...` resolves to lib/) as a user's strict
// project would: without the unused-name checks a short example would trip, and without
// exactOptionalPropertyTypes and noImplicitReturns. Errors are reported at the snippet's
// line in its page or source file.
//
// Snippets may use the few names scripts/snippet-prelude.ts declares (`client`, `model`,
// `getTime`, `chunks$`, `req`, `res`…). A snippet that is deliberately partial (a fragment
// that leans on other names from the text around it) says so in its fence: ```ts partial.
// It is skipped, and counted. A snippet presented as a complete program (one that runs as
// written in a fresh project: ```ts program) is checked WITHOUT the prelude, so one that
// leans on `model` or `getTime` without declaring them fails. The first ```ts block of
// every docs/*.md page must be a program or say it is partial. TSDoc of `@internal`
// declarations is not checked (its examples show internals, which cannot be imported from
// the package).
//
//   node scripts/check-snippets.mjs            check, exit 1 on errors
//   node scripts/check-snippets.mjs --list     print where each snippet comes from
//   node scripts/check-snippets.mjs --page docs/x.md   check only these pages (repeatable)
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
let out = join(root, 'node_modules', '.cache', 'rx-advisors-snippets');
const fence = /^(\s*)```(ts|typescript)([^\n]*)$/;

/** Every file under `dir` (recursively) whose name ends with `suffix`. */
function filesUnder(dir, suffix) {
  return readdirSync(join(root, dir), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(suffix))
    .map((entry) => relative(root, join(entry.parentPath ?? entry.path, entry.name)))
    .sort();
}

/**
 * The fenced ```ts blocks of some lines (a Markdown page, or a comment with its ` * `
 * prefixes already removed); `firstLine` is the 1-based number of `lines[0]` in its file.
 */
function blocksOf(lines, firstLine) {
  const blocks = [];
  for (let i = 0; i < lines.length; i++) {
    const open = fence.exec(lines[i]);
    if (open === null) continue;
    const indent = open[1].length;
    const end = lines.findIndex((line, j) => j > i && /^\s*```\s*$/.test(line));
    if (end === -1) break;
    blocks.push({
      line: firstLine + i + 1,
      partial: /\bpartial\b/.test(open[3]),
      program: /\bprogram\b/.test(open[3]),
      code: lines
        .slice(i + 1, end)
        .map((line) => line.slice(Math.min(indent, line.length - line.trimStart().length)))
        .join('\n'),
    });
    i = end;
  }
  return blocks;
}

/**
 * The snippets of a Markdown page. A block right after `<!-- snippet: file <path> -->` is a
 * verbatim copy of that repository file (compiled by the lint's tsc with its relative
 * imports): it is compared with the file instead of being compiled alone.
 */
function markdownSnippets(file) {
  const lines = readFileSync(join(root, file), 'utf8').split('\n');
  return blocksOf(lines, 1).map((block) => {
    let i = block.line - 3; // the line before the fence, 0-based
    while (i >= 0 && lines[i].trim() === '') i--;
    const copy = /^<!--\s*snippet:\s*file\s+(\S+)\s*-->$/.exec(lines[i]?.trim() ?? '');
    return copy === null ? block : { ...block, copyOf: copy[1] };
  });
}

/** Whether the doc comment around line `i` has an `@internal` tag. */
function isInternal(lines, i) {
  let start = i;
  while (start > 0 && !/\/\*\*/.test(lines[start])) start--;
  let end = i;
  while (end < lines.length - 1 && !/\*\//.test(lines[end])) end++;
  return lines.slice(start, end + 1).some((line) => /^\s*(\/\*\*|\*)\s*@internal\b/.test(line));
}

/** The snippets in the TSDoc `@example`s of a source file. */
function tsdocSnippets(file) {
  const lines = readFileSync(join(root, file), 'utf8').split('\n');
  const snippets = [];
  for (let i = 0; i < lines.length; i++) {
    if (!/^\s*(\/\*\*|\*)\s*@example\b/.test(lines[i])) continue;
    if (isInternal(lines, i)) continue;
    // The example runs to the next tag or the end of the comment.
    let end = i + 1;
    while (end < lines.length && !/^\s*\*\s*@\w/.test(lines[end]) && !/\*\/\s*$/.test(lines[end])) {
      end++;
    }
    const body = lines.slice(i + 1, end).map((line) => line.replace(/^\s*\* ?/, ''));
    snippets.push(...blocksOf(body, i + 2));
    i = end - 1;
  }
  return snippets;
}

/** Every snippet with its origin, `{ file, line, partial, code }`. */
export function collectSnippets(only = []) {
  if (only.length > 0) {
    return only.flatMap((file) => markdownSnippets(file).map((s) => ({ file, ...s })));
  }
  const pages = ['README.md', ...filesUnder('docs', '.md').filter((file) => !file.includes('/.'))];
  return [
    ...pages.flatMap((file) => markdownSnippets(file).map((s) => ({ file, ...s }))),
    ...filesUnder('lib', '.ts').flatMap((file) => tsdocSnippets(file).map((s) => ({ file, ...s }))),
  ];
}

/**
 * A page's first example is what a reader copies: each docs/*.md page whose first ```ts
 * block is neither a complete program (```ts program) nor marked partial is an error.
 */
export function firstExampleErrors(snippets) {
  const firsts = new Map();
  for (const s of snippets) {
    if (/(^|\/)docs\/[^/]+\.md$/.test(s.file) && !firsts.has(s.file)) firsts.set(s.file, s);
  }
  return [...firsts.values()]
    .filter((s) => !s.program && !s.partial && s.copyOf === undefined)
    .map(
      (s) =>
        `${s.file}:${s.line}: a page's first example must run as written: mark it \`\`\`ts program (checked without the prelude) or \`\`\`ts partial`,
    );
}

async function main() {
  const only = process.argv.flatMap((arg, i) =>
    process.argv[i - 1] === '--page' ? [relative(root, join(process.cwd(), arg))] : [],
  );
  const snippets = collectSnippets(only);
  // A run over chosen pages (a test) must not clobber a full run going on at the same time.
  if (only.length > 0) out = `${out}-pages-${process.pid}`;
  if (process.argv.includes('--list')) {
    for (const s of snippets) console.log(`${s.file}:${s.line}${s.partial ? ' (partial)' : ''}`);
    return;
  }
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const origin = new Map();
  const copies = snippets.filter((s) => !s.partial && s.copyOf !== undefined);
  const checked = snippets.filter((s) => !s.partial && s.copyOf === undefined);
  const copyErrors = copies
    .filter((s) => {
      try {
        return readFileSync(join(root, s.copyOf), 'utf8') !== `${s.code}\n`;
      } catch {
        return true;
      }
    })
    .map((s) => `${s.file}:${s.line}: differs from ${s.copyOf} (or it does not exist)`);
  // Two projects: snippets that may use the prelude, and complete programs, which may not.
  const programs = join(out, 'programs');
  mkdirSync(programs, { recursive: true });
  checked.forEach((s, index) => {
    const name = `${String(index).padStart(3, '0')}-${s.file.replace(/[^\w]+/g, '-')}.ts`;
    // `export {}` makes every snippet a module, so two snippets may declare the same name.
    writeFileSync(join(s.program ? programs : out, name), `${s.code}\nexport {};\n`);
    origin.set(name, s);
  });
  // A user's project is `strict`, rarely stricter: the repository's own extra flags
  // (exactOptionalPropertyTypes, unused names…) would reject sound user code.
  const compilerOptions = {
    noUnusedLocals: false,
    noUnusedParameters: false,
    exactOptionalPropertyTypes: false,
    noImplicitReturns: false,
    noEmit: true,
  };
  writeFileSync(
    join(out, 'tsconfig.json'),
    JSON.stringify({
      extends: relative(out, join(root, 'tsconfig.json')),
      compilerOptions,
      include: ['*.ts', relative(out, join(root, 'scripts', 'snippet-prelude.ts'))],
    }),
  );
  writeFileSync(
    join(programs, 'tsconfig.json'),
    JSON.stringify({
      extends: relative(programs, join(root, 'tsconfig.json')),
      compilerOptions,
      include: ['*.ts'],
    }),
  );
  const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
  // The two projects compile side by side (the programs' one is small but imports lib/).
  const outputs = await Promise.all(
    [out, programs].map(
      (project) =>
        new Promise((resolve) => {
          execFile(
            process.execPath,
            [tsc, '-p', project, '--pretty', 'false'],
            { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
            (error, stdout, stderr) => resolve(error ? `${stdout ?? ''}${stderr ?? ''}` : ''),
          );
        }),
    ),
  );
  const output = outputs.join('');
  // tsc reports `<file>(<line>,<column>): error TS…`; map snippet lines back to the page.
  // Errors in lib/ itself are the lint's to report (tsc -p tsconfig.json): only snippet
  // errors, with their continuation lines, are kept.
  const errors = [...copyErrors, ...firstExampleErrors(snippets)];
  let inSnippet = false;
  for (const line of output.split('\n')) {
    if (line.trim() === '') continue;
    const match = /([^/\\]+\.ts)\((\d+),(\d+)\): (.*)$/.exec(line);
    if (match === null) {
      if (inSnippet && /^\s/.test(line)) errors.push(line);
      else if (!/^\s/.test(line) && !/\.ts\(\d+,\d+\)/.test(line)) errors.push(line);
      continue;
    }
    inSnippet = origin.has(match[1]);
    if (!inSnippet) continue;
    const s = origin.get(match[1]);
    errors.push(`${s.file}:${s.line + Number(match[2]) - 1}:${match[3]} ${match[4]}`);
  }
  if (only.length > 0) rmSync(out, { recursive: true, force: true });
  const partial = snippets.length - checked.length - copies.length;
  const programCount = checked.filter((s) => s.program).length;
  const summary =
    `${checked.length + copies.length} snippets type-checked (${copies.length} as repository files,` +
    ` ${programCount} as complete programs without the prelude),` +
    ` ${partial} marked partial and skipped`;
  if (errors.length > 0) {
    console.error(errors.join('\n'));
    console.error(
      `${summary}: ${errors.length} errors (a fragment on purpose? mark its fence \`\`\`ts partial)`,
    );
    process.exit(1);
  }
  console.log(summary);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
