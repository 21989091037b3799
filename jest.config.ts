import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from 'jest';

// Tests run through ts-jest; tsconfig.json sets isolatedModules, so ts-jest transpiles only: type checking is the job of
// `npm run lint` (tsc --noEmit), which keeps the test run fast.
const transform: Config['transform'] = {
  '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json' }],
};
// Sources import siblings with a `.js` suffix (required by the ESM build); map it back.
// Tests may import the package by its published names, mapped to the sources: the names
// come from the one list of entry points, scripts/entry-points.json.
const { entryPoints } = JSON.parse(
  readFileSync(join(__dirname, 'scripts', 'entry-points.json'), 'utf8'),
) as { entryPoints: { name: string; source: string }[] };
const moduleNameMapper: Record<string, string> = {
  '^(\\.{1,2}/.*)\\.js$': '$1',
  ...Object.fromEntries(
    entryPoints.map(({ name, source }) => [
      `^${name.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}$`,
      `<rootDir>/${source}`,
    ]),
  ),
};

const config: Config = {
  // The closing line counts skipped tests per reason; under CI=true a skip fails the run.
  reporters: ['default', '<rootDir>/spec/support/skip-summary-reporter.cjs'],
  projects: [
    {
      displayName: 'spec',
      testEnvironment: 'node',
      testMatch: ['<rootDir>/spec/**/*.spec.ts'],
      transform,
      moduleNameMapper,
    },
    {
      displayName: 'marble-tests',
      testEnvironment: 'node',
      testMatch: ['<rootDir>/marble-tests/**/*.marble.spec.ts'],
      transform,
      moduleNameMapper,
    },
  ],
};

export default config;
