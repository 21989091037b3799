// Every test that starts a child process states its own time budget: Jest's default 5 s is
// a guess about the machine's speed, and under load (two cores shared by many jobs) a node
// or tsc start alone can take longer (issue 30, point 2: the packed-package tests hit it).
// A static check with the TypeScript compiler: in each spec file that imports
// node:child_process, a test or hook whose body reaches a child-process function (directly
// or through a helper declared in the same file) must pass a timeout, unless the file sets
// one with jest.setTimeout.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

const root = join(__dirname, '..', '..');
const TESTS = new Set(['it', 'test']);
const HOOKS = new Set(['beforeAll', 'beforeEach', 'afterAll', 'afterEach']);

function specFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : specFiles(path);
    return entry.name.endsWith('.spec.ts') ? [path] : [];
  });
}

function references(node: ts.Node, names: ReadonlySet<string>): boolean {
  if (ts.isIdentifier(node) && names.has(node.text)) return true;
  return ts.forEachChild(node, (child) => references(child, names) || undefined) === true;
}

/** Names that start a process: the child_process imports, then helpers that call them. */
function spawningNames(source: ts.SourceFile): Set<string> {
  const names = new Set<string>();
  const helpers: [string, ts.Node][] = [];
  const visit = (node: ts.Node): void => {
    if (
      ts.isImportDeclaration(node) &&
      ts.isStringLiteral(node.moduleSpecifier) &&
      /^(node:)?child_process$/.test(node.moduleSpecifier.text)
    ) {
      const bindings = node.importClause?.namedBindings;
      if (bindings && ts.isNamedImports(bindings)) {
        for (const element of bindings.elements) names.add(element.name.text);
      }
    }
    ts.forEachChild(node, visit);
  };
  // Helpers are the file's top-level functions and constants (a local of the same name in
  // a test is not a helper).
  for (const statement of source.statements) {
    if (ts.isFunctionDeclaration(statement) && statement.name && statement.body) {
      helpers.push([statement.name.text, statement.body]);
    }
    if (ts.isVariableStatement(statement)) {
      for (const declaration of statement.declarationList.declarations) {
        if (ts.isIdentifier(declaration.name) && declaration.initializer) {
          helpers.push([declaration.name.text, declaration.initializer]);
        }
      }
    }
  }
  visit(source);
  for (let grew = true; grew;) {
    grew = false;
    for (const [name, body] of helpers) {
      if (!names.has(name) && references(body, names)) {
        names.add(name);
        grew = true;
      }
    }
  }
  return names;
}

/** `it`, `test`, `it.each(…)`, `it.only`… : the base name of a test or hook call. */
function calleeName(call: ts.CallExpression): string | undefined {
  let callee: ts.Expression = call.expression;
  if (ts.isCallExpression(callee)) callee = callee.expression; // it.each(table)(…)
  while (ts.isPropertyAccessExpression(callee)) callee = callee.expression;
  return ts.isIdentifier(callee) ? callee.text : undefined;
}

/** The tests and hooks of one file that start a process without a timeout of their own. */
function unbudgeted(path: string): string[] {
  const text = readFileSync(path, 'utf8');
  if (!/child_process/.test(text) || /jest\.setTimeout\(/.test(text)) return [];
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const spawning = spawningNames(source);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node)) {
      const name = calleeName(node);
      const isTest = name !== undefined && TESTS.has(name);
      const isHook = name !== undefined && HOOKS.has(name);
      const bodyIndex = isTest ? 1 : 0;
      const body = node.arguments[bodyIndex];
      if ((isTest || isHook) && body && references(body, spawning)) {
        if (node.arguments.length <= bodyIndex + 1) {
          const { line } = source.getLineAndCharacterOfPosition(node.getStart());
          found.push(`${relative(root, path)}:${line + 1} ${name}(…) has no timeout`);
        }
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('tests that start a child process', () => {
  it('each state a time budget (a timeout argument, or jest.setTimeout in the file)', () => {
    const files = [...specFiles(join(root, 'spec')), ...specFiles(join(root, 'marble-tests'))];
    expect(files.flatMap(unbudgeted)).toEqual([]);
  });

  it('are found through helpers declared in the same file', () => {
    const path = join(root, 'spec', 'package', 'packed-package.spec.ts');
    const source = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest);
    expect([...spawningNames(source)]).toEqual(
      expect.arrayContaining(['execFile', 'execFileSync', 'outputOfAsync', 'run']),
    );
  });
});
