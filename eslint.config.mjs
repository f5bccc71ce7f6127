// ESLint (flat config): typescript-eslint's recommended rules plus the type-aware rules that find real bugs
// (promises nobody awaits or that land where a callback is expected), for the TypeScript; the plain recommended
// rules for the JavaScript (console, scripts, Jest helpers); Prettier owns formatting.
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    // types/: the console's vendor module declarations, checked by tsconfig.console.json.
    ignores: ['dist/**', 'coverage/**', 'data/**', 'test-artifacts/**', 'node_modules/**', 'types/**'],
  },

  // TypeScript: src/, test/, bench/, scripts/ and the TypeORM data-source file, checked with type information.
  {
    files: ['**/*.ts'],
    extends: [js.configs.recommended, ...tseslint.configs.recommended],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
      globals: { ...globals.node },
    },
    rules: {
      // A promise nobody awaits loses its rejection: await it, return it, or say `void` on purpose.
      '@typescript-eslint/no-floating-promises': 'error',
      // A promise where a callback's void is expected (an async listener, `if (promise)`) is never awaited either.
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      // A cast that changes nothing hides the real type from the reader.
      '@typescript-eslint/no-unnecessary-type-assertion': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { args: 'after-used', argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true },
      ],
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      // `let request; const timer = setTimeout(() => request.destroy()); request = ...`: a closure reads it first.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
    },
  },

  // The gateway logs through its logger (pino / Nest Logger), never to the console.
  {
    files: ['src/**/*.ts'],
    ignores: ['src/**/*.spec.ts', 'src/**/*.spec-support.ts'],
    rules: { 'no-console': 'error' },
  },

  // Tests: Jest's matchers and test doubles make some type-aware rules noisy without finding anything.
  {
    files: ['**/*.spec.ts', '**/*.spec-support.ts', '**/*.medium-spec.ts', '**/*.e2e-spec.ts', 'test/**/*.ts'],
    rules: {
      // Test doubles reach into private members and loosely typed bodies (supertest's `res.body` is `any`).
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },

  // Plain JavaScript run by Node: the build-if-stale script and Jest's helpers (CommonJS).
  {
    files: ['scripts/**/*.js', 'test/**/*.js', 'jest.config.js'],
    extends: [js.configs.recommended],
    languageOptions: { sourceType: 'commonjs', globals: { ...globals.node } },
    rules: {
      'no-unused-vars': ['error', { args: 'after-used', argsIgnorePattern: '^_', caughtErrors: 'none' }],
      eqeqeq: ['error', 'always', { null: 'ignore' }],
    },
  },

  // The console: ES modules served to the browser as they are (Preact + htm, no build step).
  {
    files: ['src/console/public/**/*.js'],
    extends: [js.configs.recommended],
    languageOptions: { sourceType: 'module', globals: { ...globals.browser } },
    rules: {
      'no-unused-vars': ['error', { args: 'after-used', argsIgnorePattern: '^_', caughtErrors: 'none' }],
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      'no-console': 'error',
    },
  },

  // The ESLint config itself.
  {
    files: ['eslint.config.mjs'],
    extends: [js.configs.recommended],
    languageOptions: { sourceType: 'module', globals: { ...globals.node } },
  },

  // Last: switch off every stylistic rule Prettier decides.
  prettier,
);
