import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import jestConfig from '../../jest.config';

// The entry points have one list, scripts/entry-points.json. package.json and tsconfig.json
// hold derived copies (`node scripts/entry-points.mjs --write`), jest.config.ts and the
// packed-package test read the list: this test fails as soon as a copy disagrees.
const root = join(__dirname, '..', '..');
const { entryPoints } = JSON.parse(
  readFileSync(join(root, 'scripts', 'entry-points.json'), 'utf8'),
) as { entryPoints: { name: string; source: string }[] };

describe('the one list of entry points', () => {
  it('is what package.json and tsconfig.json say', () => {
    const check = (): string =>
      execFileSync(process.execPath, [join(root, 'scripts', 'entry-points.mjs'), '--check'], {
        cwd: root,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
      });
    expect(check).not.toThrow();
  }, 60_000);

  it.each(entryPoints)('$name has its source file and a Jest mapping to it', ({ name, source }) => {
    expect(existsSync(join(root, source))).toBe(true);
    for (const project of jestConfig.projects as { moduleNameMapper: Record<string, string> }[]) {
      const mapped = Object.entries(project.moduleNameMapper).find(([pattern]) =>
        new RegExp(pattern).test(name),
      );
      expect(mapped?.[1]).toBe(`<rootDir>/${source}`);
    }
  });

  it.each(entryPoints)('$name has a row in the README\'s "What is inside" table', ({ name }) => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    expect(readme).toContain(`| \`${name}\` |`);
  });

  it('names the package exports map and nothing else', () => {
    const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
      exports: Record<string, unknown>;
    };
    expect(Object.keys(manifest.exports)).toEqual([
      ...entryPoints.map(({ name }) =>
        name === 'rx-advisors' ? '.' : name.slice('rx-advisors'.length).replace(/^\//, './'),
      ),
      './package.json',
    ]);
  });
});
