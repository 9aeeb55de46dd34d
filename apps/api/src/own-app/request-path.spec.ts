import { readFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AUTH, type InProcessApp, startInProcessApp } from '../testing/in-process-app';

// docs/ARCHITECTURE.md's "Following createPet" is the map a newcomer reads: it must name every
// production file whose code runs while one createPet is served, and no other. V8's precise
// coverage counts the functions that ran during one request (after a first one, so that what runs
// once per process is not counted).

/** swc's getter of an exported binding (`get PET_STATUSES`), which the bundle the service runs has not: reading a constant is no code run. */
const SWC_EXPORT = /^get [A-Za-z_$][\w$]*$/;
const ROOT = resolve(__dirname, '../../../..');
const MAP = resolve(ROOT, 'docs/ARCHITECTURE.md');
// Not a lib's barrel (src/index.ts): swc's getters run there, but the bundle the service runs resolves them away.
const PRODUCTION = /^(apps\/api\/src|libs\/[^/]+\/src)\/(?!.*\.spec\.ts$)(?!testing\/)(?!testing\.ts$)(?!index\.ts$).*\.ts$/;

/** The files "Following createPet" names for the store the tests run on: each item's `path`, less the other store's. */
function filesOnTheMap(): string[] {
  const text = readFileSync(MAP, 'utf8');
  const start = text.indexOf('## Following createPet');
  const section = text.slice(start, text.indexOf('\n## ', start + 1));
  const otherStore = process.env['TEST_DATABASE_URL'] ? '(PGlite only)' : '(PostgreSQL only)';
  return [...section.matchAll(/^\d+\. `([^`]+)`:(.*)$/gm)].filter(([, , rest]) => !rest.includes(otherStore)).map(([, path]) => path);
}

async function filesRunDuring(petstore: InProcessApp, request: () => Promise<unknown>): Promise<string[]> {
  const session = new Session();
  session.connect();
  try {
    await session.post('Profiler.enable');
    await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });
    await request();
    await session.post('Profiler.takePreciseCoverage');
    await request();
    const { result } = await session.post('Profiler.takePreciseCoverage');
    const ran = result.filter(({ functions }) =>
      functions.some(({ functionName, ranges }) => ranges[0].count > 0 && !SWC_EXPORT.test(functionName)),
    );
    return ran
      .map(({ url }) => relative(ROOT, url.startsWith('file:') ? fileURLToPath(url) : url))
      .filter((path) => PRODUCTION.test(path))
      .sort();
  } finally {
    await session.post('Profiler.stopPreciseCoverage');
    session.disconnect();
    void petstore;
  }
}

describe('the map of createPet', () => {
  let petstore: InProcessApp;
  beforeAll(async () => {
    petstore = await startInProcessApp();
  });
  afterAll(() => petstore?.close());

  it('names every production file whose code runs while one createPet is served, and no other', async () => {
    const create = () =>
      petstore.fastify.inject({
        method: 'POST',
        url: '/v1/pets',
        headers: { ...AUTH, 'content-type': 'application/json' },
        payload: '{"name":"Rex","categoryId":1}',
      });
    const ran = await filesRunDuring(petstore, create);
    expect({ onTheMap: filesOnTheMap().sort() }).toEqual({ onTheMap: ran });
  });
});
