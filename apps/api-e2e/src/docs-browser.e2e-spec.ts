import { existsSync } from 'node:fs';
import type { Browser, Locator } from 'playwright-core';
import { type DocumentedOperation, operations } from './support/document';
import { KEEP_VARIABLE, tempDir } from './support/leftovers';
import { baseUrl, describeOn } from './support/api';
import { AUTH, TEST_API_KEY } from './support/server';
import {
  authorize,
  CHROMIUM,
  type DocsPage,
  isAuthorized,
  launchChromium,
  openDocs,
  parameterInput,
  reload,
  requestBodyEditor,
  selectedServer,
  tryItOut,
} from './support/swagger-ui';

// Swagger UI at /docs as a reader uses it, in Chromium: Authorize, then Try it out and Execute
// on every operation of the committed document, from 127.0.0.1 on a random port (neither a listed server nor
// localhost:3000), and once more after a reload.

const BROWSER_REQUIRED = process.env.E2E_BROWSER === '1';
const BROWSER_PRESENT = existsSync(CHROMIUM);
/** Why the test does not run here, if it does not. */
function skipReason(): string | undefined {
  if (!BROWSER_PRESENT && !BROWSER_REQUIRED) {
    return `${CHROMIUM} is absent (apt-get install chromium); CI sets E2E_BROWSER=1, which makes this a failure`;
  }
  return undefined;
}
const SKIP_REASON = skipReason();
if (SKIP_REASON) console.warn(`Skipping the Swagger UI browser test: ${SKIP_REASON}.`);
const describeInBrowser = SKIP_REASON ? describe.skip : describeOn('pglite');

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

/** Starting Chromium on a loaded machine: more than one test's 60 s. */
const START_TIMEOUT_MS = 120_000;

// One authorized page serves the file, as one reader's tab would: Swagger UI is heavy to load and
// to render, so each operation is tried once on it and the last test goes through those not tried
// yet. The first test opens it without a key and authorizes it; a test run alone opens its own.
// Each works with pets it added itself, so that the tests hold in any order.
describeInBrowser('Swagger UI at /docs, in Chromium', () => {
  let launching: Promise<Browser> | undefined;
  let browser: Browser;
  /** Where the page was served from: http://127.0.0.1:<random port>. */
  let origin: string;
  // In the run's root folder: removed at the end of the run unless E2E_KEEP_TMP=1.
  const screenshotDir = tempDir('screenshots');
  const opened: DocsPage[] = [];

  beforeAll(async () => {
    if (!BROWSER_PRESENT) throw new Error(`E2E_BROWSER=1 but ${CHROMIUM} is absent: apt-get install chromium`);
    // The run's shared server (tests tell their pets apart): /docs as any instance serves it.
    origin = baseUrl();
    launching = launchChromium();
    browser = await launching;
  }, START_TIMEOUT_MS);

  afterAll(async () => {
    await Promise.all(opened.map((docs) => docs.close()));
    // Waits for a browser still starting when beforeAll gave up, so that none is left running.
    const launched = await launching?.catch(() => undefined);
    await launched?.close();
    console.log(`Screenshots of the Swagger UI test: ${screenshotDir} (kept after the run with ${KEEP_VARIABLE}=1)`);
  });

  /** The /docs page in a fresh profile, with the test key entered through Authorize unless `authorized` is false. */
  async function openPage({ authorized = true } = {}): Promise<DocsPage> {
    const docs = await openDocs(browser, `${origin}/docs`, screenshotDir);
    opened.push(docs);
    if (authorized) await authorize(docs.page, TEST_API_KEY);
    return docs;
  }

  /** The file's authorized page: the first test's, or a new one when that test did not run. */
  let authorized: Promise<DocsPage> | undefined;
  const authorizedPage = () => (authorized ??= openPage());

  /** Adds a pet of the test's own through the API, and returns its id. */
  async function addPet(): Promise<string> {
    const response = await fetch(`${origin}/v1/pets`, {
      method: 'POST',
      headers: { ...AUTH, 'content-type': 'application/json' },
      body: NEW_PET,
    });
    expect(response.status).toBe(201);
    return /"id":(\d+)/.exec(await response.text())![1];
  }

  it('is titled after the API, offers the server it was served from first, and takes an API key through Authorize', async () => {
    const docs = await openPage({ authorized: false });
    const { page } = docs;
    expect(await page.title()).toBe('Petstore API');
    expect(await selectedServer(page)).toBe('/v1');
    expect(await isAuthorized(page)).toBe(false);
    await authorize(page, TEST_API_KEY);
    expect(await isAuthorized(page)).toBe(true);
    authorized ??= Promise.resolve(docs);
  });

  describe('one operation each', () => {
    it('lists pets', async () => {
      const shown = await tryItOut(await authorizedPage(), 'listPets', 'first');
      expect(shown.requestUrl).toBe(`${origin}/v1/pets?limit=20`);
      expect(shown.status).toBe('200');
      expect(Array.isArray(JSON.parse(shown.body))).toBe(true);
    });

    it('adds a pet and shows its int64 categoryId with every digit', async () => {
      const shown = await tryItOut(await authorizedPage(), 'createPet', 'int64', (operation) => requestBodyEditor(operation).fill(NEW_PET));
      expect(shown.requestUrl).toBe(`${origin}/v1/pets`);
      expect(shown.status).toBe('201');
      const petId = /^ {2}"id": (\d+),$/m.exec(shown.body)?.[1] ?? 'none';
      expect(shown.body).toBe(shownPet(petId));
      expect(shown.headers).toContain(`location: /v1/pets/${petId}`);
    });

    it('gets a pet, from a field filled in with the example id', async () => {
      const petId = await addPet();
      const shown = await tryItOut(await authorizedPage(), 'getPet', 'added', async (operation) => {
        expect(await parameterInput(operation, 'petId').inputValue()).toBe('1');
        await parameterInput(operation, 'petId').fill(petId);
      });
      expect(shown.requestUrl).toBe(`${origin}/v1/pets/${petId}`);
      expect(shown.status).toBe('200');
      expect(shown.body).toBe(shownPet(petId));
      expect(shown.headers).toMatch(/^deprecation: @\d+$/m);
    });
  });

  it('calls its own origin only, and logs no error (a CSP refusal would be one), through every operation; after a reload, keeps the key and the server and calls the API again', async () => {
    // Every operation of the committed document: path parameters name a pet of the operation's own
    // (whatever an operation does to its pet, the next ones have theirs), bodies the operation's own example.
    const fill = (documented: DocumentedOperation, petId: string) => async (operation: Locator) => {
      for (const parameter of documented.parameters.filter((p) => p.in === 'path'))
        await parameterInput(operation, parameter.name).fill(petId);
      if (documented.bodyExample !== undefined) await requestBodyEditor(operation).fill(documented.bodyExample);
    };
    const page = await authorizedPage();
    for (const operation of operations.filter(({ operationId }) => !page.tried.has(operationId))) {
      const shown = await tryItOut(page, operation.operationId, 'origin', fill(operation, await addPet()));
      expect({ operation: operation.operationId, status: shown.status }).toEqual({
        operation: operation.operationId,
        status: expect.stringMatching(/^2\d\d$/),
      });
    }

    await reload(page);
    expect(await selectedServer(page.page)).toBe('/v1');
    expect(await isAuthorized(page.page)).toBe(true);
    // From the id before this test's last pet, one pet: that one, whatever other pets there are.
    const petId = await addPet();
    const after = String(BigInt(petId) - 1n);
    const shown = await tryItOut(page, 'listPets', 'after-reload', async (operation) => {
      await parameterInput(operation, 'limit').fill('1');
      await parameterInput(operation, 'after').fill(after);
    });
    expect(shown.requestUrl).toBe(`${origin}/v1/pets?limit=1&after=${after}`);
    expect(shown.status).toBe('200');
    expect(shown.body).toBe(shownList(shownPet(petId)));

    expect(page.requests.filter((url) => !url.startsWith(`${origin}/`))).toEqual([]);
    expect(page.errors).toEqual([]);
  });
});
