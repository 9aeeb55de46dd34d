// Shared by every project: TypeScript through SWC (decorators and their metadata included),
// with the workspace path aliases resolved by Nx's resolver.
const { readFileSync } = require('node:fs');
const { join } = require('node:path');

const swcrc = JSON.parse(readFileSync(join(__dirname, '.swcrc'), 'utf8'));
delete swcrc.jsc.baseUrl;
delete swcrc.jsc.paths;

module.exports = {
  testEnvironment: 'node',
  resolver: '@nx/jest/plugins/resolver',
  moduleFileExtensions: ['ts', 'js', 'json'],
  testMatch: ['<rootDir>/src/**/*.spec.ts'],
  transform: {
    '^.+\\.ts$': ['@swc/jest', { ...swcrc, swcrc: false }],
    // NestJS 12 and cookie (light-my-request's, for Fastify's inject) ship ES modules only; Jest's
    // CommonJS runtime on Node 20 needs them compiled too.
    '^.+/node_modules/(@nestjs|cookie)/.+\\.js$': ['@swc/jest', { swcrc: false, module: { type: 'commonjs' }, jsc: { target: 'es2022' } }],
  },
  transformIgnorePatterns: ['/node_modules/(?!(@nestjs|cookie)/)'],
  modulePathIgnorePatterns: ['<rootDir>/dist/'],
};
