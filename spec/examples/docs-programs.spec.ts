// The first examples of docs/observability.md, docs/mcp.md and docs/memory.md are complete
// programs (```ts program, type-checked without the snippet prelude by
// scripts/check-snippets.mjs). Here they run as written: each is copied with the page's
// other files (mcp.md's calendar-server.mjs, its ```js block) into a folder of its own and
// started with Node (tsx; `rx-advisors` resolves to lib/ through tsconfig.json's paths),
// as an ES module, the way a fresh project with "type": "module" runs it.
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(__dirname, '..', '..');
const outDir = join(root, 'test-output', 'doc-programs');

function blocks(page: string, info: RegExp): string[] {
  const text = readFileSync(join(root, 'docs', page), 'utf8');
  return [...text.matchAll(/^```([^\n]*)\n([\s\S]*?)^```$/gm)]
    .filter((match) => info.test(match[1]))
    .map((match) => match[2]);
}

function runProgram(
  page: string,
  files: Record<string, string> = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const program = blocks(page, /^ts program$/)[0];
  if (program === undefined) throw new Error(`${page} has no \`\`\`ts program block`);
  const dir = join(outDir, page.replace(/\.md$/, ''));
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
  writeFileSync(join(dir, 'main.ts'), program);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      ['--import', 'tsx', 'main.ts'],
      {
        cwd: dir,
        encoding: 'utf8',
        env: { ...process.env, TSX_TSCONFIG_PATH: join(root, 'tsconfig.json') },
      },
      (_error, stdout, stderr) => resolve({ code: child.exitCode, stdout, stderr }),
    );
  });
}

describe("docs' first examples run as written", () => {
  it('observability.md: spans printed by the console exporter, then the answer', async () => {
    const { code, stdout, stderr } = await runProgram('observability.md');
    expect(stderr).toBe('');
    expect(code).toBe(0);
    for (const span of ['chat', 'execute_tool getTime', 'invoke_workflow OpenTelemetryAdvisor']) {
      expect(stdout).toContain(`name: '${span}'`);
    }
    expect(stdout.trim().split('\n').at(-1)).toBe('It is noon in Paris.');
  }, 60_000);

  it('mcp.md: the calendar server from the page starts, its tools run, the answer prints', async () => {
    const server = blocks('mcp.md', /^js$/)[0];
    expect(server).toContain('new StdioServerTransport()');
    const { code, stdout, stderr } = await runProgram('mcp.md', { 'calendar-server.mjs': server });
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toBe('ada and grace registered on 2026-12-01.\n');
  }, 60_000);

  it('mcp.md: without its server the program reports the error and exits 1 (no crash)', async () => {
    const { code, stdout, stderr } = await runProgram('mcp.md');
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toMatch(/McpConnectionError/);
  }, 60_000);

  it('memory.md: the second answer was asked with the first turn in the request', async () => {
    const { code, stdout, stderr } = await runProgram('memory.md');
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toBe('Hello Ada.\nYou are Ada.\nsystem, user, assistant, user\n');
  }, 60_000);
});
