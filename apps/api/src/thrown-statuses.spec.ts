import { readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { committedDocument, operationsOf } from './testing/document';
import { thrownStatusProblems } from './testing/thrown-statuses';

// A status a handler (or a service it calls) throws is documented on its operation, read from the source: a refusal no test
// triggers is caught too.

const ROOT = resolve(__dirname, '../../..');

describe('the statuses route handlers throw', () => {
  it('are each documented on their operation, for every operation of the document', async () => {
    const files = ['libs', 'apps'].flatMap((dir) =>
      readdirSync(resolve(ROOT, dir), { recursive: true, encoding: 'utf8' })
        .filter((file) => file.endsWith('.controller.ts') && !file.includes('node_modules'))
        .map((file) => resolve(ROOT, dir, file)),
    );
    const read = await Promise.all(files.map(thrownStatusProblems));
    expect(read.flatMap(({ problems }) => problems)).toEqual([]);
    expect(read.flatMap(({ handlers }) => handlers)).toHaveLength(operationsOf(committedDocument()).length);
  });

  it("are refused, naming the fix, when undocumented (the handler's own, or its service's) or unreadable", async () => {
    const { problems } = await thrownStatusProblems(resolve(__dirname, 'testing/undocumented-refusal.fixture.ts'));
    expect(problems).toEqual([
      expect.stringMatching(
        /^UndocumentedRefusalController\.refuses throws `FixtureRefusal\.forbidden\(\)` \(403\), which its operation does not document: add ApiRefusal\(FixtureRefusal\.forbidden\(\), /,
      ),
      expect.stringMatching(
        /^UndocumentedRefusalController\.throwsUnreadable throws `error`, whose status cannot be read from its source: /,
      ),
      expect.stringMatching(
        /^UndocumentedRefusalController\.finds throws `new PetNotFoundError\(1n\)` in FixtureService \(404\), which its operation does not document: add ApiErrorResponse\(404, …\) /,
      ),
    ]);
  });
});
