// Unit tests and the in-process suite: the real application (createApp) on a database of each test
// file's own (apps/api/src/testing). A file's beforeAll starts its app, which on a loaded machine
// takes longer than Jest's default 5 s; whatever a file started is closed when it ends.
module.exports = {
  displayName: 'api',
  preset: '../../jest.preset.js',
  testTimeout: 60_000,
  setupFilesAfterEnv: ['<rootDir>/src/testing/quiet-nest-logger.ts', '<rootDir>/src/testing/file-teardown.ts'],
  // Suites run by src/shared-app.spec.ts (on one shared app) and src/own-app.spec.ts (each on an app of
  // its own), which import them: not test files of their own.
  testPathIgnorePatterns: ['/node_modules/', '<rootDir>/src/shared-app/', '<rootDir>/src/own-app/'],
};
