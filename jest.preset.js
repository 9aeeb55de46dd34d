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
  transform: { '^.+\\.ts$': ['@swc/jest', { ...swcrc, swcrc: false }] },
  modulePathIgnorePatterns: ['<rootDir>/dist/'],
};
