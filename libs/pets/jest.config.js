module.exports = {
  displayName: 'pets',
  preset: '../../jest.preset.js',
};
