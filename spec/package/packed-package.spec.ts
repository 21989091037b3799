import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// Builds the package, packs it, installs the tarball into a fresh folder and imports
// every entry point of the exports map from CommonJS and from ESM, as a user would.
const root = join(__dirname, '..', '..');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  exports: Record<string, unknown>;
  version: string;
};
const entryPoints = Object.keys(manifest.exports)
  .filter((key) => key !== './package.json')
  .map((key) => (key === '.' ? 'rx-advisors' : `rx-advisors/${key.slice(2)}`));

function run(command: string, args: string[], cwd: string): string {
  return execFileSync(command, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

describe('the packed package', () => {
  let consumer: string;

  beforeAll(() => {
    run(process.execPath, [join(root, 'scripts', 'build.mjs')], root);
    consumer = mkdtempSync(join(tmpdir(), 'rx-advisors-consumer-'));
    const tarball = run('npm', ['pack', '--silent', '--pack-destination', consumer], root)
      .trim()
      .split('\n')
      .pop()!;
    writeFileSync(
      join(consumer, 'package.json'),
      JSON.stringify({ name: 'consumer', private: true }),
    );
    run(
      'npm',
      [
        'install',
        '--prefer-offline',
        '--no-audit',
        '--no-fund',
        join(consumer, tarball),
        'rxjs@7.8.2',
      ],
      consumer,
    );
  }, 240_000);

  afterAll(() => {
    rmSync(consumer, { recursive: true, force: true });
  });

  it('lists every entry point the design names that exists so far', () => {
    expect(entryPoints).toEqual(expect.arrayContaining(['rx-advisors', 'rx-advisors/testing']));
  });

  it.each(entryPoints)('%s loads with require() and with import', (entry) => {
    const cjs = run(
      process.execPath,
      [
        '-e',
        `const m = require(${JSON.stringify(entry)}); console.log(Object.keys(m).sort().join(','))`,
      ],
      consumer,
    ).trim();
    const esm = run(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `const m = await import(${JSON.stringify(entry)}); console.log(Object.keys(m).filter((k) => k !== 'default').sort().join(','))`,
      ],
      consumer,
    ).trim();
    expect(cjs.length).toBeGreaterThan(0);
    expect(esm).toBe(cjs);
  });

  it('runs a chat call from both module systems', () => {
    const program = (load: string) => `
      ${load}
      const model = MockChatModel.script([{ text: 'Hello from the tarball' }]);
      ChatClient.create(model).prompt('Hi').call().content().subscribe((text) => console.log(text));`;
    const cjs = run(
      process.execPath,
      [
        '-e',
        program(
          "const { ChatClient } = require('rx-advisors'); const { MockChatModel } = require('rx-advisors/testing');",
        ),
      ],
      consumer,
    );
    const esm = run(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        program(
          "import { ChatClient } from 'rx-advisors'; import { MockChatModel } from 'rx-advisors/testing';",
        ),
      ],
      consumer,
    );
    expect(cjs.trim()).toBe('Hello from the tarball');
    expect(esm.trim()).toBe('Hello from the tarball');
  });

  it('ships type declarations for every entry point', () => {
    for (const value of Object.values(manifest.exports)) {
      if (typeof value !== 'object' || value === null) continue;
      const conditions = Object.keys(value);
      expect(conditions[0]).toBe('types');
      const types = (value as Record<string, string>)['types'];
      expect(() =>
        readFileSync(join(consumer, 'node_modules', 'rx-advisors', types)),
      ).not.toThrow();
    }
  });
});
