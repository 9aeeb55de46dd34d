module.exports = {
  displayName: 'http',
  preset: '../../jest.preset.js',
};
