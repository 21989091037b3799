// @ts-check
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import rxjsX from 'eslint-plugin-rxjs-x';
import tseslint from 'typescript-eslint';

export default defineConfig(
  {
    ignores: [
      'node_modules/**',
      'dist/**',
      'coverage/**',
      'scratch/**',
      'test-output/**',
      '**/*.mjs',
      '**/*.js',
      '**/*.cjs',
    ],
  },
  {
    files: ['**/*.ts'],
    extends: [
      js.configs.recommended,
      tseslint.configs.recommendedTypeChecked,
      rxjsX.configs.recommended,
    ],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
    },
  },
  {
    // Small files, one concept each (STYLE.md): a file of lib/ past 300 lines wants splitting.
    files: ['lib/**/*.ts'],
    rules: {
      'max-lines': ['error', { max: 300 }],
      // An object literal with a getter or setter made per call: V8 gives each one its own
      // accessor pair in the old generation, which keeps all its closure reaches alive
      // through minor GCs (a tool round, a nested agent's answer). Use a class with a
      // shared accessor (lib/core/signal-context.ts; docs/performance.md, "Issue 28: what
      // kept each tool round alive").
      'no-restricted-syntax': [
        'error',
        {
          selector: ':function ObjectExpression > Property[kind=/^(get|set)$/]',
          message:
            'No getter/setter in an object literal made per call: its accessor pair is allocated old and pins its closure (see lib/core/signal-context.ts).',
        },
      ],
    },
  },
  {
    // Tests, examples and benchmarks may subscribe freely and use loose test doubles.
    files: [
      'spec/**/*.ts',
      'marble-tests/**/*.ts',
      'examples/**/*.ts',
      'bench/**/*.ts',
      'scripts/**/*.ts',
    ],
    rules: {
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/unbound-method': 'off',
      'rxjs-x/no-ignored-subscription': 'off',
      'rxjs-x/no-topromise': 'off',
    },
  },
);
