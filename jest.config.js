/**
 * Three tiers: unit tests next to the code (*.spec.ts); medium tests in test/medium (*.medium-spec.ts),
 * services on a temporary database with a fake family; e2e tests in test/ boot the real AppModule.
 */
const transform = {
  '^.+\\.ts$': ['ts-jest', { diagnostics: false }],
  // ESM-only dependencies, compiled to CommonJS for Jest's module loader (see the file).
  '^.+\\.m?js$': '<rootDir>/test/support/jest-esm-to-cjs.js',
};
// node_modules stay untransformed except the ESM-only packages the app loads.
const transformIgnorePatterns = ['/node_modules/(?!(@nestjs)/)'];

module.exports = {
  testTimeout: 60000,
  // Two workers even on two cores (Jest's default would be one): the e2e suites spend most of their
  // time waiting on gateways, browsers and databases, so two at once nearly halve the run.
  maxWorkers: 2,
  // A worker that has grown past this after a suite is replaced by a fresh one: Jest's module registry keeps
  // growing across the ~320 suites a worker may run, and one worker once reached V8's 4 GB heap limit.
  workerIdleMemoryLimit: '1500MB',
  // What was skipped, and why, and the slowest suites are printed once, after the summary.
  reporters: ['default', '<rootDir>/test/support/skip-reporter.js', '<rootDir>/test/support/slow-suites-reporter.js'],
  projects: [
    {
      displayName: 'unit',
      testEnvironment: 'node',
      rootDir: '.',
      roots: ['<rootDir>/src'],
      testMatch: ['**/*.spec.ts'],
      transform,
      transformIgnorePatterns,
    },
    {
      displayName: 'medium',
      testEnvironment: 'node',
      rootDir: '.',
      roots: ['<rootDir>/test/medium'],
      testMatch: ['**/*.medium-spec.ts'],
      transform,
      transformIgnorePatterns,
    },
    {
      displayName: 'e2e',
      testEnvironment: 'node',
      rootDir: '.',
      roots: ['<rootDir>/test'],
      testMatch: ['**/*.e2e-spec.ts'],
      transform,
      transformIgnorePatterns,
      slowTestThreshold: 30,
    },
  ],
};
