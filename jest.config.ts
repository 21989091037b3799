import type { Config } from 'jest';

// Tests run through ts-jest; tsconfig.json sets isolatedModules, so ts-jest transpiles only: type checking is the job of
// `npm run lint` (tsc --noEmit), which keeps the test run fast.
const transform: Config['transform'] = {
  '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json' }],
};
// Sources import siblings with a `.js` suffix (required by the ESM build); map it back.
// Tests may import the package by its published names, mapped to the sources.
const moduleNameMapper = {
  '^(\\.{1,2}/.*)\\.js$': '$1',
  '^rx-advisors$': '<rootDir>/lib/index.ts',
  '^rx-advisors/(openai|anthropic)$': '<rootDir>/lib/providers/$1/index.ts',
  '^rx-advisors/(testing|sse|memory/sqlite)$': '<rootDir>/lib/$1/index.ts',
};

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
