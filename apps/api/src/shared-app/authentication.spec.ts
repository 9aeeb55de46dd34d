import { committedDocument, exampleRequestOf, operationsOf } from '../testing/document';
import { call, expectError } from '../testing/http';
import { sharedApp, type InProcessApp, TEST_API_KEY } from '../testing/in-process-app';

// Bearer authentication of every operation on the real application, in process (the budgets and
// limits: own-app/rate-limits.spec.ts, an app with small ones).

let petstore: InProcessApp;
beforeAll(async () => {
  petstore = await sharedApp();
});

const document = committedDocument();
/** Every operation of the committed document, as its documented example request. */
const OPERATIONS = operationsOf(document).map((entry) => {
  const { method, url, body } = exampleRequestOf(document, entry);
  return [method, url, body] as const;
});

describe('bearer authentication', () => {
  describe.each(OPERATIONS)('%s %s', (method, path, json) => {
    it('answers 401 with a Bearer challenge when the Authorization header is missing', async () => {
      const response = await call(petstore, method, path, { auth: false, json });
      expectError(response, 401, 'UNAUTHORIZED');
      expect(response.headers.get('www-authenticate')).toBe('Bearer realm="petstore"');
    });

    it.each([
      ['a valid key, then an invalid one', [`Bearer ${TEST_API_KEY}`, 'Bearer not-a-key']],
      ['an invalid key, then a valid one', ['Bearer not-a-key', `Bearer ${TEST_API_KEY}`]],
      ['the valid key twice', [`Bearer ${TEST_API_KEY}`, `Bearer ${TEST_API_KEY}`]],
    ])('answers 401 invalid_request for two Authorization headers: %s', async (_case, credentials) => {
      // Sent as two header lines, as a client would: inject keeps both in rawHeaders.
      const response = await call(petstore, method, path, { headers: { authorization: credentials }, json });
      expect(response.status).toBe(401);
      expect(response.body).toEqual({ code: 'UNAUTHORIZED', message: 'Exactly one Authorization header is allowed', status: 401 });
      expect(response.headers.get('www-authenticate')).toBe('Bearer realm="petstore", error="invalid_request"');
    });

    it('answers 401 invalid_token for an unknown key', async () => {
      const response = await call(petstore, method, path, { headers: { authorization: 'Bearer not-a-key' }, json });
      expectError(response, 401, 'UNAUTHORIZED');
      expect(response.headers.get('www-authenticate')).toBe('Bearer realm="petstore", error="invalid_token"');
    });
  });

  it.each([
    ['a Basic credential', `Basic ${Buffer.from(`user:${TEST_API_KEY}`).toString('base64')}`],
    ['the bare scheme', 'Bearer'],
    ['an empty token', 'Bearer '],
    ['two spaces', `Bearer  ${TEST_API_KEY}`],
    ['a trailing word', `Bearer ${TEST_API_KEY} extra`],
    ['the token without scheme', TEST_API_KEY],
  ])('answers 401 (never 400) for %s', async (_case, authorization) => {
    const response = await call(petstore, 'GET', '/v1/pets', { headers: { authorization } });
    expectError(response, 401, 'UNAUTHORIZED');
    expect(response.headers.get('www-authenticate')).toMatch(/^Bearer realm="petstore", error="invalid_(request|token)"$/);
  });

  it('accepts the scheme name in any case', async () => {
    const response = await call(petstore, 'GET', '/v1/pets', { headers: { authorization: `bearer ${TEST_API_KEY}` } });
    expect(response.status).toBe(200);
  });

  it('does not take a token from the query string', async () => {
    const response = await call(petstore, 'GET', `/v1/pets?access_token=${TEST_API_KEY}`, { auth: false });
    expectError(response, 401, 'UNAUTHORIZED');
  });

  it('does not take a token from the body', async () => {
    const response = await call(petstore, 'POST', '/v1/pets', {
      auth: false,
      json: { name: 'Rex', categoryId: 1, access_token: TEST_API_KEY },
    });
    expectError(response, 401, 'UNAUTHORIZED');
  });

  it('refuses a near miss of the key', async () => {
    for (const key of [TEST_API_KEY.slice(0, -1), `${TEST_API_KEY}x`, TEST_API_KEY.toUpperCase()]) {
      expectError(await call(petstore, 'GET', '/v1/pets', { headers: { authorization: `Bearer ${key}` } }), 401, 'UNAUTHORIZED');
    }
  });

  describe('is decided before anything else is looked at', () => {
    it.each([
      ['an invalid petId', 'GET', '/v1/pets/abc', undefined, undefined],
      ['an invalid limit', 'GET', '/v1/pets?limit=0', undefined, undefined],
      ['an invalid body', 'POST', '/v1/pets', '{"name":""}', undefined],
      ['malformed JSON', 'POST', '/v1/pets', '{"name":', undefined],
      ['a wrong content type', 'POST', '/v1/pets', 'name=Rex', 'text/plain'],
    ])('401 for %s without a key', async (_case, method, path, body, contentType) => {
      const headers: Record<string, string> = contentType
        ? { 'content-type': contentType }
        : body
          ? { 'content-type': 'application/json' }
          : {};
      expectError(await call(petstore, method, path, { auth: false, body, headers }), 401, 'UNAUTHORIZED');
    });

    it('401 for a pet that exists, without a key', async () => {
      const id = ((await call(petstore, 'POST', '/v1/pets', { json: { name: 'Rex', categoryId: 1 } })).body as { id: number }).id;
      expectError(await call(petstore, 'GET', `/v1/pets/${id}`, { auth: false }), 401, 'UNAUTHORIZED');
    });
  });

  it('leaves the health probes and the API documents public', async () => {
    for (const path of ['/healthz', '/readyz', '/openapi.json', '/docs']) {
      expect((await call(petstore, 'GET', path, { auth: false })).status).toBe(200);
    }
    expect((await call(petstore, 'GET', '/', { auth: false })).status).toBe(302);
  });
});
