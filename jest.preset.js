// Shared by every project: TypeScript through SWC (decorators and their metadata included),
// with the workspace path aliases resolved by Nx's resolver.
const { readFileSync } = require('node:fs');
const { join } = require('node:path');

const swcrc = JSON.parse(readFileSync(join(__dirname, '.swcrc'), 'utf8'));
delete swcrc.jsc.baseUrl;
delete swcrc.jsc.paths;

// ES modules only: NestJS 12; cookie (light-my-request's, for Fastify's inject); content-disposition
// (@fastify/static's, for the docs pages). PGlite's CommonJS build loads Node's modules with
// import(), which Jest's runtime refuses: compiled, it requires them.
const COMPILED_PACKAGES = ['@nestjs', 'cookie', 'content-disposition', '@electric-sql'];

module.exports = {
  testEnvironment: 'node',
  // Hooks too: an in-memory PGlite starts in a second or two, several times that on a loaded 2-core CI.
  testTimeout: 30_000,
  // Jest's default keeps a core for itself, which waits: every core runs test files instead.
  maxWorkers: '100%',
  resolver: '@nx/jest/plugins/resolver',
  moduleFileExtensions: ['ts', 'js', 'json'],
  testMatch: ['<rootDir>/src/**/*.spec.ts'],
  transform: {
    '^.+\\.ts$': ['@swc/jest', { ...swcrc, swcrc: false }],
    // Packages Jest's CommonJS runtime on Node 20 cannot load as shipped (COMPILED_PACKAGES), compiled too.
    [`^.+/node_modules/(${COMPILED_PACKAGES.join('|')})/.+\\.c?js$`]: [
      '@swc/jest',
      { swcrc: false, module: { type: 'commonjs' }, jsc: { target: 'es2022' } },
    ],
  },
  transformIgnorePatterns: [`/node_modules/(?!(${COMPILED_PACKAGES.join('|')})/)`],
  modulePathIgnorePatterns: ['<rootDir>/dist/'],
};
