import { closeLeftOpen } from './left-open';

// After each test file of the project: every in-process app it started is closed (its database
// dropped, its scratch directory removed, Prism in front of it stopped), whether the file's own
// afterAll ran, or got there first.
afterAll(() => closeLeftOpen());
