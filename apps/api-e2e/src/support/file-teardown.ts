import { recordValidatedCount } from './contract';
import { stopTracked } from './leftovers';

// After each test file: the processes it started and left running are stopped (SIGKILL after a
// grace), whether its tests passed, failed or timed out; and it adds the number of answers it
// validated against the OpenAPI document to the run's count.
afterAll(async () => {
  await stopTracked();
  const file = process.env.E2E_CONTRACT_COUNT_FILE;
  if (file) recordValidatedCount(file);
});
