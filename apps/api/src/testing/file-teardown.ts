import { closeLeftOpen } from './left-open';
import { takeUndocumentedFields } from './undocumented-fields';

// After each test file of the project: every in-process app it started is closed (its database
// dropped, its scratch directory removed, Prism in front of it stopped), whether the file's own
// afterAll ran, or got there first.
afterAll(() => closeLeftOpen());

// After each test: an answer that had a field its schema does not name fails the test that got it.
afterEach(() => {
  const fields = takeUndocumentedFields();
  if (fields.length > 0) throw new Error(fields.join('\n'));
});
