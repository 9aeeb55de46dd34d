module.exports = {
  displayName: 'data-dir',
  preset: '../../jest.preset.js',
};
