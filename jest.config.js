const { getJestProjectsAsync } = require('@nx/jest');
const { availableParallelism } = require('node:os');
const { dirname } = require('node:path');
const api = require('./apps/api/jest.config');
const e2e = require('./apps/api-e2e/jest.config');
const tools = require('./tools/jest.config');

// The preset's options that only a whole run may set (Jest warns on them in a project, or ignores them).
const RUN_ONLY = ['maxWorkers', 'testTimeout'];
const preset = Object.fromEntries(Object.entries(require('./jest.preset')).filter(([option]) => !RUN_ONLY.includes(option)));

// `npm test` (after `npm run build`): every test of the workspace in one Jest run, scheduled
// together on every core, longest first.
// - "unit": the unit tests and the in-process suite of every Nx project, as one Jest project. Jest
//   keeps a transform cache per project: as a dozen, each that loads Nest compiled its ES modules
//   again. The projects' own jest.config.js stay for `nx test <project>`; this one takes the
//   projects' folders from Nx, the api's set-up (closing what a file left open) and ignored folders
//   (suites that a test file of the api imports), and the tools' transform from their configs.
// - the e2e targets of apps/api-e2e/jest.config.js (the built service as a child process). Their
//   global set-up runs only when one of their files is selected: `jest --selectProjects unit` needs no build.

// Each test file of a worker loads a database of its own (tens of MB of buffers) and drops it after.
// glibc would give that memory back to the system and take it again for the next file, which on
// some machines costs more than the tests (docs/development.md, "Test run time"). The workers keep it.
process.env.GLIBC_TUNABLES ??= 'glibc.malloc.mmap_threshold=4294967295:glibc.malloc.trim_threshold=4294967295';

module.exports = async () => {
  const unitRoots = (await getJestProjectsAsync())
    .filter((project) => !project.includes('api-e2e'))
    .map((project) => (project.endsWith('.js') ? dirname(project) : project));
  return {
    projects: [
      {
        ...preset,
        displayName: 'unit',
        rootDir: __dirname,
        roots: unitRoots,
        testMatch: ['**/*.spec.ts'],
        moduleFileExtensions: tools.moduleFileExtensions,
        transform: { ...preset.transform, ...tools.transform },
        setupFilesAfterEnv: api.setupFilesAfterEnv.map((file) => file.replace('<rootDir>', '<rootDir>/apps/api')),
        testPathIgnorePatterns: api.testPathIgnorePatterns.map((pattern) => pattern.replace('<rootDir>', '<rootDir>/apps/api')),
      },
      ...e2e.projects,
    ],
    // Half as many workers again as cores (three on two): an e2e file often waits (on its server's
    // start or stop, a drain or lock bound), and the extra workers keep the cores busy meanwhile
    // (docs/development.md).
    maxWorkers: Math.ceil(availableParallelism() * 1.5),
    // One limit for tests and hooks, the e2e suite's: a start (of a child process, or of the
    // in-process app) on a loaded 2-core machine takes tens of seconds.
    testTimeout: e2e.testTimeout,
    // A worker holds a gigabyte by the end, and where fresh memory is dear its exit outlasts Jest's
    // 500 ms, which Jest reports as a leak (docs/development.md, "Test run time"). A real leak still shows.
    workerGracefulExitTimeout: 3_000,
  };
};
