const { getJestProjectsAsync } = require('@nx/jest');

// Unit tests of every project; the e2e suite needs a built server and runs on its own (nx e2e).
module.exports = async () => ({
  projects: (await getJestProjectsAsync()).filter((project) => !project.includes('api-e2e')),
});
