module.exports = {
  displayName: 'client',
  preset: '../../jest.preset.js',
};
