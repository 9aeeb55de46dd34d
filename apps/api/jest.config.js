// Unit tests and the in-process suite: the real application (createApp) on a database of each test
// file's own (apps/api/src/testing). A file's beforeAll starts its app, which on a loaded machine
// takes longer than Jest's default 5 s.
module.exports = {
  displayName: 'api',
  preset: '../../jest.preset.js',
  testTimeout: 60_000,
};
