// What a test file opened and may not have closed: an app whose start outlasted its beforeAll's
// time limit (the file's afterAll then had nothing to close), or a file that failed before its
// afterAll could. file-teardown.ts closes them all when the file ends. No heavy imports here: every
// file of the project loads it.

const opened = new Set<Promise<(() => Promise<void>) | undefined>>();

/** Has `opening` (once it resolves) closed when the test file ends, unless closed before. */
export function closeAtFileEnd(opening: Promise<{ close(): Promise<void> }>): void {
  opened.add(
    opening.then(
      (resource) => () => resource.close(),
      () => undefined,
    ),
  );
}

/** Closes whatever was opened in this file, waiting for what is still opening. */
export async function closeLeftOpen(): Promise<void> {
  const all = [...opened];
  opened.clear();
  for (const close of await Promise.all(all)) await close?.().catch(() => undefined);
}
