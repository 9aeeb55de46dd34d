module.exports = {
  displayName: 'tools',
  preset: '../jest.preset.js',
  // Tools keep their code beside their scripts, not under src/.
  testMatch: ['<rootDir>/**/*.spec.ts'],
  // The build's modules are ES modules run by node as they are: compiled for Jest's CommonJS runtime.
  moduleFileExtensions: ['ts', 'js', 'mjs', 'json'],
  transform: { '^.+\\.mjs$': ['@swc/jest', { swcrc: false, module: { type: 'commonjs' }, jsc: { target: 'es2022' } }] },
};
