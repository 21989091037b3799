import type { Config } from 'jest';

// Tests run through ts-jest; tsconfig.json sets isolatedModules, so ts-jest transpiles only: type checking is the job of
// `npm run lint` (tsc --noEmit), which keeps the test run fast.
const transform: Config['transform'] = {
  '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json' }],
};
// Sources import siblings with a `.js` suffix (required by the ESM build); map it back.
const moduleNameMapper = { '^(\\.{1,2}/.*)\\.js$': '$1' };

const config: Config = {
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
