// The build strips `@internal` declarations (tsconfig.build.json: stripInternal), so an
// entry point that exports one would ship a name its declarations no longer have.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import ts from 'typescript';

const root = resolve(__dirname, '../..');
const { entryPoints } = JSON.parse(
  readFileSync(join(root, 'scripts', 'entry-points.json'), 'utf8'),
) as { entryPoints: { name: string; source: string }[] };

/** `entry name → exported name` for every export of an entry point marked `@internal`. */
function internalExports(): string[] {
  const program = ts.createProgram(
    entryPoints.map((entry) => join(root, entry.source)),
    {
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      noEmit: true,
      skipLibCheck: true,
    },
  );
  const checker = program.getTypeChecker();
  const found: string[] = [];
  for (const entry of entryPoints) {
    const file = program.getSourceFile(join(root, entry.source));
    const module = file === undefined ? undefined : checker.getSymbolAtLocation(file);
    if (module === undefined) throw new Error(`cannot read the exports of ${entry.source}`);
    for (const exported of checker.getExportsOfModule(module)) {
      const target =
        exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
      const internal = (target.declarations ?? []).some((declaration) =>
        ts.getJSDocTags(declaration).some((tag) => tag.tagName.text === 'internal'),
      );
      if (internal) found.push(`${entry.name} → ${exported.name}`);
    }
  }
  return found;
}

describe('public declarations', () => {
  it('stripInternal is on for the build', () => {
    const config = ts.readConfigFile(join(root, 'tsconfig.build.json'), (path) =>
      readFileSync(path, 'utf8'),
    ).config as { compilerOptions: { stripInternal?: boolean } };
    expect(config.compilerOptions.stripInternal).toBe(true);
  });

  it('no entry point exports an @internal declaration', () => {
    expect(internalExports()).toEqual([]);
  }, 60_000);
});
