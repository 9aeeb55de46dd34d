module.exports = {
  displayName: 'tools',
  preset: '../jest.preset.js',
  // Tools keep their code beside their scripts, not under src/.
  testMatch: ['<rootDir>/**/*.spec.ts'],
};
