import { buildSync } from 'esbuild';
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  w9AiSdk,
  w9FloorAsyncGen,
  w9FloorRxjs,
  w9LangChain,
  w9RxAdvisors,
  type W9Adapter,
} from '../../bench/adapters/w9-cold-start';
import {
  w6AiSdkAdapter,
  w6RxAdvisorsAdapter,
  type W6Adapter,
} from '../../bench/adapters/w6-streamed-object';
import { textFixture } from '../../bench/harness/fixtures';
import { objectFixture } from '../../bench/workloads/w6-object-fixture';
import { checkW6 } from '../../bench/workloads/w6-streamed-object';
import { coldStart, writeScripts } from '../../bench/workloads/w9-cold-start';
import { skippedTitle } from '../support/skip-marker';

// Not a benchmark: every W6 and W9 adapter runs once on a small size and must produce the
// expected answer, so a broken adapter fails CI instead of publishing a meaningless number.
const root = join(__dirname, '..', '..');
const langchainCore = join(root, 'bench', 'node_modules', '@langchain', 'core');
const langchainInstalled = existsSync(join(langchainCore, 'package.json'));
if (!langchainInstalled) {
  it.skip(
    skippedTitle(
      'W6/W9 langchain adapters',
      'the bench dependencies are not installed (npm run prelint)',
    ),
    () => undefined,
  );
}

describe('bench adapters W6 (streamed structured output)', () => {
  const adapters: W6Adapter[] = [
    w6RxAdvisorsAdapter,
    w6AiSdkAdapter,
    ...(langchainInstalled
      ? [
          jest.requireActual<{ w6LangChainAdapter: W6Adapter }>('../../bench/adapters/w6-langchain')
            .w6LangChainAdapter,
        ]
      : []),
  ];

  it.each(adapters.map((adapter) => [adapter.framework, adapter] as const))(
    '%s streams partial objects of a 1 KB answer, the last one the whole answer',
    async (_name, adapter) => {
      const fixture = objectFixture(1);
      expect(fixture.text.length).toBeGreaterThanOrEqual(1024);
      expect(JSON.parse(fixture.text)).toEqual(fixture.value);
      expect(fixture.deltas.every((delta) => delta.length <= 4)).toBe(true);
      const result = await adapter.stream(fixture);
      expect(() => checkW6(adapter, fixture, result)).not.toThrow();
      expect(result.partials).toBeGreaterThan(fixture.deltas.length / 2);
    },
  );

  it('the check rejects a run that did not end with the whole answer', () => {
    const fixture = objectFixture(1);
    const truncated = { ...fixture.value, items: fixture.value.items.slice(1) };
    expect(() => checkW6(w6RxAdvisorsAdapter, fixture, { final: truncated, partials: 3 })).toThrow(
      /not the answer/,
    );
  });
});

describe('bench adapters W9 (cold start)', () => {
  let dir: string;
  const deltas = textFixture(10).deltas;
  const link = (name: string, target: string): void => {
    const path = join(dir, 'node_modules', name);
    mkdirSync(join(path, '..'), { recursive: true });
    symlinkSync(target, path, 'dir');
  };

  const cases: [W9Adapter, 'cjs' | 'mjs'][] = [
    [w9RxAdvisors, 'cjs'],
    [w9RxAdvisors, 'mjs'],
    [w9AiSdk, 'cjs'],
    [w9AiSdk, 'mjs'],
    ...(langchainInstalled ? ([[w9LangChain, 'cjs']] as [W9Adapter, 'cjs'][]) : []),
    [w9FloorRxjs, 'mjs'],
    [w9FloorAsyncGen, 'cjs'],
  ];

  beforeAll(() => {
    // A consumer folder: rx-advisors bundled from the sources (CommonJS and ESM, its
    // dependencies left as imports), the peers linked from this repository's installs.
    dir = mkdtempSync(join(tmpdir(), 'rx-advisors-w9-spec-'));
    const own = join(dir, 'node_modules', 'rx-advisors');
    for (const [format, file] of [
      ['cjs', 'index.cjs'],
      ['esm', 'index.mjs'],
    ] as const) {
      buildSync({
        entryPoints: [join(root, 'lib', 'index.ts')],
        bundle: true,
        packages: 'external',
        platform: 'node',
        format,
        outfile: join(own, file),
        logLevel: 'error',
      });
    }
    writeFileSync(
      join(own, 'package.json'),
      JSON.stringify({
        name: 'rx-advisors',
        exports: { '.': { import: './index.mjs', require: './index.cjs' } },
      }),
    );
    for (const name of ['rxjs', 'ajv', 'ajv-formats', 'ai'])
      link(name, join(root, 'node_modules', name));
    if (langchainInstalled) link('@langchain/core', langchainCore);
    for (const adapter of [w9RxAdvisors, w9AiSdk, w9LangChain, w9FloorRxjs, w9FloorAsyncGen])
      writeScripts(dir, adapter, deltas);
    for (const [adapter, extension] of cases) {
      // Started now, awaited by each test; a failure is reported by its own test.
      sampleOf(`cold-${adapter.framework}.${extension}`).catch(() => undefined);
    }
  });

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  // The processes run side by side (this is a check, not a measurement).
  const samples = new Map<string, ReturnType<typeof coldStart>>();
  const sampleOf = (file: string): ReturnType<typeof coldStart> => {
    let sample = samples.get(file);
    if (sample === undefined) {
      sample = coldStart(dir, file);
      samples.set(file, sample);
    }
    return sample;
  };

  it.each(cases.map(([adapter, extension]) => [adapter.framework, extension, adapter] as const))(
    '%s (.%s) prints the times of its import and first chunk, after the whole text',
    async (_name, extension, adapter) => {
      const sample = await sampleOf(`cold-${adapter.framework}.${extension}`);
      expect(sample.ok).toBe(true);
      expect(sample.started).toBeGreaterThan(0);
      expect(sample.imported).toBeGreaterThanOrEqual(sample.started);
      expect(sample.first).toBeGreaterThanOrEqual(sample.imported);
    },
  );
});
