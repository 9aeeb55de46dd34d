module.exports = {
  displayName: 'persistence',
  preset: '../../jest.preset.js',
};
