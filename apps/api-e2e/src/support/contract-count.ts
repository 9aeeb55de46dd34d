import { recordValidatedCount } from './contract';

// Each test file adds the number of answers it validated against the OpenAPI document.
afterAll(() => {
  const file = process.env.E2E_CONTRACT_COUNT_FILE;
  if (file) recordValidatedCount(file);
});
