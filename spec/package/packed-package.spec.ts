import { execFile, execFileSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readmeSnippets } from './readme-snippets';

// Builds the package, packs it once, installs the tarball once into a temporary consumer
// (with the peers and the oldest TypeScript the package claims), then checks it as users
// meet it: every entry point loads from CommonJS and from ESM, arethetypeswrong finds no
// problem, and consumer code (spec/package/consumer/*.ts, one file per entry point, plus
// the README's examples) type-checks in each module setup of `setups` below.
const root = join(__dirname, '..', '..');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  exports: Record<string, unknown>;
  peerDependencies: Record<string, string>;
};
const { entryPoints } = JSON.parse(
  readFileSync(join(root, 'scripts', 'entry-points.json'), 'utf8'),
) as { entryPoints: { name: string; source: string }[] };
const names = entryPoints.map((entry) => entry.name);

// The oldest TypeScript the package supports is the lower bound of its optional peer.
const oldestTypeScript = /^>=(\d+\.\d+\.\d+)$/.exec(manifest.peerDependencies['typescript'] ?? '');
// Every peer (and the type packages the consumer code needs) at the version the repository
// tests with, so npm finds it in its cache; install scripts are skipped (no native builds:
// only the types of better-sqlite3 matter here).
const peerNames = Object.keys(manifest.peerDependencies).filter((name) => name !== 'typescript');
const typesOf = (name: string): string => `@types/${name.replace(/^@(.*)\//, '$1__')}`;
const peers = [
  ...peerNames,
  ...peerNames.map(typesOf).filter((name) => existsSync(join(root, 'node_modules', name))),
  '@types/node',
];
const installedVersion = (name: string): string =>
  (
    JSON.parse(readFileSync(join(root, 'node_modules', name, 'package.json'), 'utf8')) as {
      version: string;
    }
  ).version;

interface Setup {
  name: string;
  type: 'module' | 'commonjs';
  module: string;
  moduleResolution: string;
  typescript: 'typescript' | 'typescript-oldest' | 'typescript-7';
  /** Whether the declarations themselves are checked too (slower: openai's are large). */
  checkDeclarations: boolean;
}
// Declarations are checked (skipLibCheck off) where it matters most; openai's are large.
const setup = (
  name: string,
  type: Setup['type'],
  module: string,
  moduleResolution: string,
  more: Partial<Setup> = {},
): Setup => ({
  name,
  type,
  module,
  moduleResolution,
  typescript: 'typescript',
  checkDeclarations: false,
  ...more,
});
const setups: Setup[] = [
  setup('esm-nodenext', 'module', 'NodeNext', 'NodeNext', { checkDeclarations: true }),
  setup('cjs-nodenext', 'commonjs', 'NodeNext', 'NodeNext', { checkDeclarations: true }),
  setup('bundler', 'module', 'ESNext', 'Bundler'),
  setup('cjs-node10', 'commonjs', 'CommonJS', 'Node10'),
  setup('oldest-typescript', 'module', 'NodeNext', 'NodeNext', {
    typescript: 'typescript-oldest',
    checkDeclarations: true,
  }),
  // TypeScript 7 (the native compiler; a devDependency alias of the repository): its
  // defaults differ (e.g. `types` is empty unless listed, as this tsconfig does).
  setup('typescript-7', 'module', 'NodeNext', 'NodeNext', {
    typescript: 'typescript-7',
    checkDeclarations: true,
  }),
];

function run(command: string, args: string[], cwd: string): string {
  return execFileSync(command, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/** Runs a command and returns its output even when it fails, so a test can show the errors. */
function outputOf(command: string, args: string[], cwd: string): string {
  try {
    return run(command, args, cwd);
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    return `${stdout ?? ''}${stderr ?? ''}` || String(error);
  }
}

/**
 * The errors of a tsc run that are ours: in the consumer's files or in this package's
 * declarations. Errors inside other packages' declarations (an SDK's types against this
 * machine's @types/node, a peer's missing @types dependency) are left to those packages.
 */
function ownErrors(output: string): string {
  let keep = false;
  const kept: string[] = [];
  for (const line of output.split('\n')) {
    if (line.trim() === '') continue;
    if (!/^\s/.test(line)) {
      keep = !/node_modules\//.test(line) || /node_modules\/rx-advisors\//.test(line);
    }
    if (keep) kept.push(line);
  }
  return kept.join('\n');
}

/** {@link outputOf} without blocking: several type checks run at once. */
function outputOfAsync(command: string, args: string[], cwd: string): Promise<string> {
  return new Promise((resolve) => {
    execFile(command, args, { cwd, encoding: 'utf8' }, (_error, stdout, stderr) =>
      resolve(`${stdout}${stderr}`),
    );
  });
}

describe('the packed package', () => {
  let consumer: string;
  let tarball: string;
  /** The tsc output of each setup: all started together in beforeAll (two cores, six runs). */
  const typeChecks = new Map<string, Promise<string>>();

  beforeAll(() => {
    run(process.execPath, [join(root, 'scripts', 'build.mjs')], root);
    consumer = mkdtempSync(join(tmpdir(), 'rx-advisors-consumer-'));
    const file = run('npm', ['pack', '--silent', '--pack-destination', consumer], root)
      .trim()
      .split('\n')
      .pop()!;
    tarball = join(consumer, file);
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
        '--ignore-scripts',
        tarball,
        ...peers.map((peer) => `${peer}@${installedVersion(peer)}`),
        `typescript-oldest@npm:typescript@${oldestTypeScript![1]}`,
      ],
      consumer,
    );
    const snippets = readmeSnippets(readFileSync(join(root, 'README.md'), 'utf8'));
    for (const setup of setups) {
      const folder = join(consumer, setup.name);
      mkdirSync(folder);
      cpSync(join(__dirname, 'consumer'), folder, { recursive: true });
      snippets.forEach((code, index) =>
        writeFileSync(join(folder, `readme-${index + 1}.ts`), code),
      );
      writeFileSync(join(folder, 'package.json'), JSON.stringify({ type: setup.type }));
      writeFileSync(
        join(folder, 'tsconfig.json'),
        JSON.stringify({
          compilerOptions: {
            strict: true,
            noEmit: true,
            skipLibCheck: !setup.checkDeclarations,
            target: 'ES2022',
            types: ['node'],
            module: setup.module,
            moduleResolution: setup.moduleResolution,
            esModuleInterop: true,
          },
          include: ['*.ts'],
        }),
      );
    }
    for (const setup of setups) {
      const tsc =
        setup.typescript === 'typescript-oldest'
          ? join(consumer, 'node_modules', setup.typescript, 'bin', 'tsc')
          : join(root, 'node_modules', setup.typescript, 'bin', 'tsc');
      typeChecks.set(
        setup.name,
        outputOfAsync(process.execPath, [tsc, '-p', '.'], join(consumer, setup.name)),
      );
    }
  }, 300_000);

  afterAll(() => {
    rmSync(consumer, { recursive: true, force: true });
  });

  it('declares the oldest TypeScript it supports as an optional peer', () => {
    expect(oldestTypeScript).not.toBeNull();
  });

  it('has one consumer file per entry point', () => {
    const files = entryPoints.map(({ name }) =>
      name === 'rx-advisors'
        ? 'root.ts'
        : `${name.slice('rx-advisors/'.length).replace(/\//g, '-')}.ts`,
    );
    for (const file of files) {
      expect(readFileSync(join(__dirname, 'consumer', file), 'utf8')).toContain(
        "from 'rx-advisors",
      );
    }
  });

  it.each(names)(
    '%s loads with require() and with import',
    async (entry) => {
      // Each entry in a process of its own (nothing loaded before it), all started at once.
      const [cjs, esm] = await Promise.all([
        outputOfAsync(
          process.execPath,
          [
            '-e',
            `const m = require(${JSON.stringify(entry)}); console.log(Object.keys(m).sort().join(','))`,
          ],
          consumer,
        ),
        outputOfAsync(
          process.execPath,
          [
            '--input-type=module',
            '-e',
            `const m = await import(${JSON.stringify(entry)}); console.log(Object.keys(m).filter((k) => k !== 'default').sort().join(','))`,
          ],
          consumer,
        ),
      ]);
      expect(cjs.trim()).toMatch(/^[\w$]+(,[\w$]+)*$/); // export names, not an error
      expect(esm.trim()).toBe(cjs.trim());
      // Two node starts, while beforeAll's six tsc runs share the two cores: seconds each.
    },
    60_000,
  );

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
  }, 60_000);

  // The build bundles each entry point (scripts/build.mjs): a module two entry points use
  // must still exist once, so a class is the same (and `instanceof` holds) from either.
  it.each(['cjs', 'esm'])(
    'exports one value per name from every entry point that has it (%s)',
    async (format) => {
      const load = format === 'cjs' ? 'require(name)' : 'await import(name)';
      const program = `
        const names = ${JSON.stringify(names)};
        const seen = new Map();
        const differ = [];
        for (const name of names) {
          const m = ${load};
          for (const [key, value] of Object.entries(m)) {
            if (key === 'default') continue;
            if (seen.has(key) && seen.get(key) !== value) differ.push(key + ' in ' + name);
            seen.set(key, value);
          }
        }
        console.log(JSON.stringify({ names: seen.size, differ }));`;
      const output = await outputOfAsync(
        process.execPath,
        format === 'cjs' ? ['-e', program] : ['--input-type=module', '-e', program],
        consumer,
      );
      const { names: count, differ } = JSON.parse(output) as { names: number; differ: string[] };
      expect(differ).toEqual([]);
      expect(count).toBeGreaterThan(100);
    },
    60_000,
  );

  it('keeps instanceof across entry points and loads ajv on first use, from both module systems', () => {
    const program = (load: string) => `
      ${load}
      const error = toProviderError(new Error('down'), { provider: 'p', secrets: [] });
      const rootError = new GuardrailTrippedError({ guardrail: 'g', stage: 'input', safeMessage: 's' });
      console.log(error instanceof ProviderError, rootError instanceof Tripped);
      of({ text: '{"n":1}' })
        .pipe(parseEntity({ type: 'object', properties: { n: { type: 'number' } }, required: ['n'] }))
        .subscribe((value) => console.log(JSON.stringify(value)));`;
    const names = (from: (specifier: string) => string) =>
      `const { ProviderError, GuardrailTrippedError, parseEntity } = ${from('rx-advisors')};
       const { toProviderError } = ${from('rx-advisors/provider-kit')};
       const { GuardrailTrippedError: Tripped } = ${from('rx-advisors/guardrails')};
       const { of } = ${from('rxjs')};`;
    const cjs = run(
      process.execPath,
      ['-e', program(names((specifier) => `require('${specifier}')`))],
      consumer,
    );
    const esm = run(
      process.execPath,
      ['--input-type=module', '-e', program(names((specifier) => `await import('${specifier}')`))],
      consumer,
    );
    expect(cjs.trim().split('\n')).toEqual(['true true', '{"n":1}']);
    expect(esm.trim().split('\n')).toEqual(['true true', '{"n":1}']);
  }, 60_000);

  it('loads the root entry point from a few bundled files, without ajv', () => {
    // ~210 files before the entry points were bundled (docs/architecture.md, "Cold start").
    // The CommonJS build is the ES module build converted file by file: the same files.
    const program = `
      require('rx-advisors');
      const files = Object.keys(require.cache);
      console.log(JSON.stringify({
        ours: files.filter((file) => file.includes('/node_modules/rx-advisors/')).length,
        ajv: files.filter((file) => file.includes('/node_modules/ajv')).length,
      }));`;
    const { ours, ajv } = JSON.parse(run(process.execPath, ['-e', program], consumer)) as {
      ours: number;
      ajv: number;
    };
    expect(ours).toBeLessThanOrEqual(40);
    expect(ajv).toBe(0);
  }, 60_000);

  it('ships ESM and CommonJS declarations for every entry point', () => {
    for (const { name } of entryPoints) {
      const subpath = name === 'rx-advisors' ? '.' : `./${name.slice('rx-advisors/'.length)}`;
      const conditions = manifest.exports[subpath] as Record<string, Record<string, string>>;
      for (const condition of ['import', 'require']) {
        expect(Object.keys(conditions[condition])).toEqual(['types', 'default']);
        const types = conditions[condition]['types'];
        expect(() =>
          readFileSync(join(consumer, 'node_modules', 'rx-advisors', types)),
        ).not.toThrow();
      }
    }
  });

  it('has no problem arethetypeswrong can find', () => {
    const attw = join(root, 'node_modules', '@arethetypeswrong', 'cli', 'dist', 'index.js');
    const report = outputOf(process.execPath, [attw, tarball, '--format', 'json'], root);
    const { problems } = JSON.parse(report) as { problems: unknown[] | Record<string, unknown> };
    expect(Object.values(problems)).toEqual([]);
  }, 60_000);

  it.each(setups.map((setup) => setup.name))(
    'type-checks the README examples and one file per entry point: %s',
    async (name) => {
      expect(ownErrors(await typeChecks.get(name)!)).toBe('');
    },
    // Six tsc runs started together on two shared cores: the declaration-checked TS 5 runs
    // took over 120 s at a load average of 17 (the TS 7 one, native, a few seconds).
    300_000,
  );
});
