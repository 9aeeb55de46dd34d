// How far V8 lets the old generation grow past what survived its last full collection: by up to
// four times when the process allocates fast, as this service does under load (at 64 connections
// RSS went from 130 MiB idle to 250–260 MiB on Node 20, with some 40 MiB live). At one and a half
// times the peak is 159–166 MiB, for more frequent full collections whose cost stays within the
// noise of `npm run bench:heap` (docs/performance.md, "Memory"). Unlike --max-old-space-size, it
// sets no limit that a burst of live data could run into and crash the process at. Node does not
// take the flag in NODE_OPTIONS, so main.ts sets it, second: `node --heap-growing-percent=N` given
// by an operator is left as it is (N=0: V8's own policy).
import { setFlagsFromString } from 'node:v8';

/** The old generation may grow to this much more than the data that survived the last full collection. */
export const HEAP_GROWING_PERCENT = 50;

/** V8 reads "-" and "_" in a flag's name alike. */
const GIVEN_ON_COMMAND_LINE = /^--heap[-_]growing[-_]percent(=|$)/;

/** Sets V8's heap growing factor unless node was started with one; says whether it did. */
export function limitHeapGrowth(execArgv: readonly string[]): boolean {
  if (execArgv.some((arg) => GIVEN_ON_COMMAND_LINE.test(arg))) return false;
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
  return true;
}

limitHeapGrowth(process.execArgv);
