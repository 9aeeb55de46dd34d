// Black-box tests of the built service: each project starts `dist/apps/api/src/main.js`
// as a child process and talks HTTP to it. PGlite always; PostgreSQL when
// TEST_DATABASE_URL names a database (whose name must contain "test"); `pooled` when named in
// E2E_TARGETS: two instances behind a load balancer, through PgBouncer in transaction mode on a
// database of its own (E2E_POSTGRES_URL's server), sharing Redis (TEST_REDIS_URL).
const e2eProject = (target, targets) => ({
  displayName: `e2e:${target}`,
  preset: '../../jest.preset.js',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.e2e-spec.ts'],
  globalSetup: '<rootDir>/src/support/global-setup.ts',
  globalTeardown: '<rootDir>/src/support/global-teardown.ts',
  // Jest runs the global set-up and teardown once per run, whichever project names them: they
  // start and stop every target's shared server, from e2eTargets.
  globals: { e2eTarget: target, e2eTargets: targets },
  setupFilesAfterEnv: ['<rootDir>/src/support/file-teardown.ts'],
});

// E2E_TARGETS (e.g. "postgres" or "pooled") picks the targets explicitly.
const targets = process.env.E2E_TARGETS?.split(',') ?? ['pglite', ...(process.env.TEST_DATABASE_URL ? ['postgres'] : [])];

module.exports = {
  projects: targets.map((target) => e2eProject(target, targets)),
  maxWorkers: 2,
  // Each test may start a server of its own, and a fresh embedded database takes seconds to create.
  testTimeout: 90_000,
};
