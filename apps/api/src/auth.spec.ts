import { startInProcessApp, type InProcessApp } from './testing/in-process-app';

// Bearer authentication and rate limits on the real application, in process. Each test has keys
// and a client address of its own: the limits count per key and per address.

const KEYS = ['first-key-0123456789', 'second-key-0123456789', 'third-key-0123456789', 'fourth-key-0123456789'];

describe('bearer authentication, in process', () => {
  let petstore: InProcessApp;
  beforeAll(async () => {
    petstore = await startInProcessApp({
      API_KEYS: KEYS.join(','),
      RATE_LIMIT_PER_MINUTE: '2',
      RATE_LIMIT_AUTH_FAILURES_PER_MINUTE: '2',
    });
  });
  afterAll(() => petstore?.close());

  const get = (authorization: string | undefined, remoteAddress: string, url = '/v1/pets') =>
    petstore.fastify.inject({ method: 'GET', url, remoteAddress, headers: authorization ? { authorization } : {} });

  it('admits a bootstrap key and reports its rate limit', async () => {
    const response = await get(`Bearer ${KEYS[0]}`, '10.0.0.1');
    expect(response.statusCode).toBe(200);
    expect(response.headers['ratelimit-policy']).toBe('"per-key";q=2;w=60');
    expect(response.headers['ratelimit']).toMatch(/^"per-key";r=1;t=\d+$/);
  });

  it.each([
    ['no header', undefined, 'Bearer realm="petstore"', '10.0.1.1'],
    ['another scheme', 'Basic dXNlcjpwYXNz', 'Bearer realm="petstore", error="invalid_request"', '10.0.1.2'],
    ['a malformed bearer header', 'Bearer', 'Bearer realm="petstore", error="invalid_request"', '10.0.1.3'],
    ['an unknown key', 'Bearer not-a-key-0123456789', 'Bearer realm="petstore", error="invalid_token"', '10.0.1.4'],
  ])('refuses %s with 401, the Error body and the challenge', async (_case, authorization, challenge, address) => {
    const response = await get(authorization, address);
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ code: 'UNAUTHORIZED', message: expect.any(String), status: 401 });
    expect(response.headers['www-authenticate']).toBe(challenge);
    expect(response.headers['ratelimit-policy']).toBe('"auth-failures";q=2;w=60');
  });

  it('never takes the key from the query string', async () => {
    expect((await get(undefined, '10.0.2.1', `/v1/pets?access_token=${KEYS[0]}`)).statusCode).toBe(401);
  });

  it("answers 429 past a key's limit, for that key only", async () => {
    for (let request = 0; request < 2; request++) expect((await get(`Bearer ${KEYS[1]}`, '10.0.3.1')).statusCode).toBe(200);
    const refused = await get(`Bearer ${KEYS[1]}`, '10.0.3.1');
    expect([refused.statusCode, refused.json().code]).toEqual([429, 'RATE_LIMITED']);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect((await get(`Bearer ${KEYS[2]}`, '10.0.3.1')).statusCode).toBe(200);
  });

  it('throttles the failures of an address past its budget with 429, and still admits a valid key from it', async () => {
    for (let request = 0; request < 2; request++) expect((await get('Bearer wrong-key-0123456789', '10.0.4.1')).statusCode).toBe(401);
    expect((await get('Bearer wrong-key-0123456789', '10.0.4.1')).statusCode).toBe(429);
    expect((await get(`Bearer ${KEYS[3]}`, '10.0.4.1')).statusCode).toBe(200);
  });
});
