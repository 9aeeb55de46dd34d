import { existsSync } from 'node:fs';
import { target } from './support/api';
import { databaseEnv, type RunningServer, startServer, TEST_API_KEY } from './support/server';
import {
  authorize,
  CHROMIUM,
  type DocsPage,
  isAuthorized,
  openDocs,
  parameterInput,
  reload,
  requestBodyEditor,
  selectedServer,
  tryItOut,
} from './support/swagger-ui';

// Swagger UI at /docs as a reader uses it, in Chromium: Authorize, then Try it out and Execute
// on every operation, from 127.0.0.1 on a random port (neither a listed server nor
// localhost:3000), and once more after a reload.

const BROWSER_REQUIRED = process.env.E2E_BROWSER === '1';
const BROWSER_PRESENT = existsSync(CHROMIUM);
/** Why the test does not run here, if it does not. */
function skipReason(): string | undefined {
  // The page calls its own server, never Prism: the same run without Prism covers it.
  if (process.env.E2E_PRISM === '1') return 'the run through Prism does not involve the page';
  if (!BROWSER_PRESENT && !BROWSER_REQUIRED) {
    return `${CHROMIUM} is absent (apt-get install chromium); CI sets E2E_BROWSER=1, which makes this a failure`;
  }
  return undefined;
}
const SKIP_REASON = skipReason();
if (SKIP_REASON) console.warn(`Skipping the Swagger UI browser test: ${SKIP_REASON}.`);
const describeInBrowser = SKIP_REASON ? describe.skip : describe;

const INT64_MAX = '9223372036854775807';
/** JSON.parse would read the categoryId as 9223372036854775808 and show it as 9223372036854776000. */
const NEW_PET = `{"name":"Rex","categoryId":${INT64_MAX},"status":"available"}`;

/** The pet as the page shows it: laid out as by JSON.stringify(pet, null, 2), with every digit. */
function shownPet(id: string): string {
  const layout = JSON.stringify({ id: 0, name: 'Rex', categoryId: 0, status: 'available' }, null, 2);
  return layout.replace('"id": 0', `"id": ${id}`).replace('"categoryId": 0', `"categoryId": ${INT64_MAX}`);
}

/** A list of that one pet, as the page shows it. */
function shownList(pet: string): string {
  return `[\n${pet.replace(/^/gm, '  ')}\n]`;
}

/** Starting a server (a new embedded database) and Chromium on a loaded machine: more than one test's 60 s. */
const START_TIMEOUT_MS = 120_000;

describeInBrowser('Swagger UI at /docs, in Chromium', () => {
  let server: RunningServer | undefined;
  let opening: Promise<DocsPage> | undefined;
  let docs: DocsPage;
  /** Where the page was served from: http://127.0.0.1:<random port>. */
  let origin: string;
  let petId: string;

  beforeAll(async () => {
    if (!BROWSER_PRESENT) throw new Error(`E2E_BROWSER=1 but ${CHROMIUM} is absent: apt-get install chromium`);
    server = await startServer(databaseEnv(target));
    origin = server.url;
    opening = openDocs(`${origin}/docs`);
    docs = await opening;
  }, START_TIMEOUT_MS);

  afterAll(async () => {
    // Waits for a browser still starting when beforeAll gave up, so that none is left running.
    const opened = await opening?.catch(() => undefined);
    await Promise.all([opened?.close(), server?.stop()]);
    if (opened) console.log(`Screenshots of the Swagger UI test: ${opened.screenshotDir}`);
  });

  it('is titled after the API and offers the server it was served from first', async () => {
    expect(await docs.page.title()).toBe('Petstore API');
    expect(await selectedServer(docs.page)).toBe('/v1');
  });

  it('takes an API key through Authorize', async () => {
    await authorize(docs.page, TEST_API_KEY);
    expect(await isAuthorized(docs.page)).toBe(true);
  });

  it('lists pets', async () => {
    const shown = await tryItOut(docs, 'listPets', 'first');
    expect(shown.requestUrl).toBe(`${origin}/v1/pets?limit=20`);
    expect(shown.status).toBe('200');
    expect(Array.isArray(JSON.parse(shown.body))).toBe(true);
  });

  it('adds a pet and shows its int64 categoryId with every digit', async () => {
    const shown = await tryItOut(docs, 'createPet', 'int64', (operation) => requestBodyEditor(operation).fill(NEW_PET));
    expect(shown.requestUrl).toBe(`${origin}/v1/pets`);
    expect(shown.status).toBe('201');
    petId = /^ {2}"id": (\d+),$/m.exec(shown.body)?.[1] ?? 'none';
    expect(shown.body).toBe(shownPet(petId));
    expect(shown.headers).toContain(`location: /v1/pets/${petId}`);
  });

  it('gets that pet, from a field filled in with the example id', async () => {
    const shown = await tryItOut(docs, 'getPet', 'added', async (operation) => {
      expect(await parameterInput(operation, 'petId').inputValue()).toBe('1');
      await parameterInput(operation, 'petId').fill(petId);
    });
    expect(shown.requestUrl).toBe(`${origin}/v1/pets/${petId}`);
    expect(shown.status).toBe('200');
    expect(shown.body).toBe(shownPet(petId));
    expect(shown.headers).toContain('deprecation: @1922659200');
  });

  it('keeps the key and the server after a reload, and calls the API again', async () => {
    await reload(docs);
    expect(await selectedServer(docs.page)).toBe('/v1');
    expect(await isAuthorized(docs.page)).toBe(true);
    const after = String(BigInt(petId) - 1n);
    const shown = await tryItOut(docs, 'listPets', 'after-reload', async (operation) => {
      await parameterInput(operation, 'limit').fill('1');
      await parameterInput(operation, 'after').fill(after);
    });
    expect(shown.requestUrl).toBe(`${origin}/v1/pets?limit=1&after=${after}`);
    expect(shown.status).toBe('200');
    expect(shown.body).toBe(shownList(shownPet(petId)));
  });

  it('called its own origin only, and logged no error (a CSP refusal would be one)', () => {
    expect(docs.requests.filter((url) => !url.startsWith(`${origin}/`))).toEqual([]);
    expect(docs.errors).toEqual([]);
  });
});
