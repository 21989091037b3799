// The closing-line reporter on its own: skips are grouped by the reason in their title,
// unmarked skips are still counted (with "no reason given"), tests left out by `-t` are not,
// and under CI=true any skip fails the run.
import type { AggregatedResult } from '@jest/test-result';
import { skippedTitle } from './skip-marker';

type Reporter = {
  onRunComplete(contexts: Set<unknown>, results: AggregatedResult): void;
  getLastError(): Error | undefined;
};
type ReporterClass = new (
  globalConfig: { testNamePattern?: string },
  options: { env: NodeJS.ProcessEnv; write: (text: string) => void },
) => Reporter;
// eslint-disable-next-line @typescript-eslint/no-require-imports
const SkipSummaryReporter = require('./skip-summary-reporter.cjs') as ReporterClass;

function results(
  tests: { file: string; titles: string[]; status: 'passed' | 'failed' | 'pending' | 'todo' }[],
): AggregatedResult {
  const files = [...new Set(tests.map((test) => test.file))];
  return {
    numPassedTests: tests.filter((test) => test.status === 'passed').length,
    numFailedTests: tests.filter((test) => test.status === 'failed').length,
    testResults: files.map((file) => ({
      testFilePath: file,
      testResults: tests
        .filter((test) => test.file === file)
        .map((test) => ({
          ancestorTitles: test.titles.slice(0, -1),
          title: test.titles.at(-1),
          status: test.status,
        })),
    })),
  } as unknown as AggregatedResult;
}

function run(
  runResults: AggregatedResult,
  env: NodeJS.ProcessEnv,
  globalConfig: { testNamePattern?: string } = {},
): { line: string; error: Error | undefined } {
  let written = '';
  const reporter = new SkipSummaryReporter(globalConfig, { env, write: (t) => (written += t) });
  reporter.onRunComplete(new Set(), runResults);
  return { line: written.trim(), error: reporter.getLastError() };
}

const noRedis = 'no redis-server on PATH (apt-get install redis-server)';
const mixed = results([
  { file: 'a.spec.ts', titles: ['ok', 'works'], status: 'passed' },
  { file: 'r1.spec.ts', titles: [skippedTitle('Redis', noRedis), 'one'], status: 'pending' },
  { file: 'r1.spec.ts', titles: [skippedTitle('Redis', noRedis), 'two'], status: 'pending' },
  { file: 'r2.spec.ts', titles: [skippedTitle('Redis streams', noRedis), 'x'], status: 'pending' },
  { file: 'b.spec.ts', titles: ['later'], status: 'todo' },
]);

describe('SkipSummaryReporter', () => {
  it('counts skips per reason in the closing line and passes outside CI', () => {
    const { line, error } = run(mixed, {});
    expect(line).toBe(
      `Summary: 1 passed, 0 failed, 4 skipped (3 in 2 files: ${noRedis}; 1 in 1 file: no reason given (it.skip / it.todo without a [skipped: …] title))`,
    );
    expect(error).toBeUndefined();
  });

  it('fails the run under CI=true when anything is skipped', () => {
    const { line, error } = run(mixed, { CI: 'true' });
    expect(line).toMatch(/ -- FAILED: under CI=true nothing may be skipped$/);
    expect(error?.message).toBe('4 test(s) skipped under CI=true; every suite must run in CI.');
  });

  it('does not count tests left out by -t, only skips that say why', () => {
    const { line } = run(mixed, {}, { testNamePattern: 'works' });
    expect(line).toBe(`Summary: 1 passed, 0 failed, 3 skipped (3 in 2 files: ${noRedis})`);
  });

  it('passes under CI=true when nothing is skipped', () => {
    const clean = results([{ file: 'a.spec.ts', titles: ['ok'], status: 'passed' }]);
    expect(run(clean, { CI: 'true' })).toEqual({
      line: 'Summary: 1 passed, 0 failed, 0 skipped',
      error: undefined,
    });
  });
});
