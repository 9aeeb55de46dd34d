const { getJestProjectsAsync } = require('@nx/jest');

// Unit tests and the in-process suite of every project; the e2e suite needs a built server and
// runs on its own (nx e2e). Jest takes the time limit of tests and hooks from here when it runs
// several projects: in-process test files start the real application in their beforeAll, which a
// loaded machine slows past Jest's default 5 s (apps/api/jest.config.js says the same for nx).
module.exports = async () => ({
  projects: (await getJestProjectsAsync()).filter((project) => !project.includes('api-e2e')),
  testTimeout: 60_000,
  maxWorkers: '100%',
});
