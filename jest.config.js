// Tiers: `unit` specs sit beside the code and need nothing running;
// `integration` suites in test/ need real servers (provisioned by test/run-tests.sh).
const base = {
  transform: { '^.+\\.ts$': ['ts-jest', { diagnostics: false }] },
  moduleNameMapper: { '^@crawlhub/(.*)$': '<rootDir>/libs/$1/src' },
  // 'node', plus a temporary directory per test file, removed when the file is done.
  testEnvironment: '<rootDir>/test/support/temp-dir-environment.ts',
};
module.exports = {
  projects: [
    { ...base, displayName: 'unit', testMatch: ['<rootDir>/libs/**/*.spec.ts', '<rootDir>/apps/**/*.spec.ts'] },
    { ...base, displayName: 'integration', testMatch: ['<rootDir>/test/**/*.test.ts'] },
  ],
};
