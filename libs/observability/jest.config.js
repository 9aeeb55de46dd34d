module.exports = {
  displayName: 'observability',
  preset: '../../jest.preset.js',
};
