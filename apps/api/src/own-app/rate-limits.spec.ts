import { IssuedKeys } from '@petstore/auth';
import { headersOf } from '../testing/http';
import { type InProcessApp, startInProcessApp } from '../testing/in-process-app';

// Rate limits of one instance, in memory, on the real application in process: per key, and for
// failed authentications per client address. Shared through Redis by several instances:
// apps/api-e2e's rate-limits.e2e-spec.ts.

const auth = (key: string) => ({ authorization: `Bearer ${key}` });

/** What the tests read of an answer. */
interface Answer {
  readonly status: number;
  readonly headers: Headers;
  json(): unknown;
}

function expectRateLimited(response: Answer, policy: string, limit: number): void {
  expect(response.status).toBe(429);
  expect(response.json()).toEqual({
    code: 'RATE_LIMITED',
    message: expect.stringMatching(/^Rate limit exceeded; retry in \d+ s$/),
    status: 429,
  });
  const retryAfter = Number(response.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(60);
  expect(response.headers.get('ratelimit-policy')).toBe(`"${policy}";q=${limit};w=60`);
  expect(response.headers.get('ratelimit')).toBe(`"${policy}";r=0;t=${retryAfter}`);
}

describe('rate limits in one instance', () => {
  let petstore: InProcessApp;
  // Each test draws on budgets no other test touches, so that they hold in any order: a bootstrap
  // key of its own, and for failed authentications a client address of its own, which it names in
  // X-Forwarded-For (the app trusts the loopback proxy: inject's requests come from 127.0.0.1).
  const KEYS = Array.from({ length: 8 }, (_, index) => `e2e-rate-limit-key-${index}-0123456789`);
  let keysTaken = 0;
  const ownKey = () => KEYS[keysTaken++];
  let addressesTaken = 0;
  const ownAddress = () => `192.0.2.${++addressesTaken}`;
  const send = async (headers: Record<string, string>, init: { method?: 'POST'; body?: string } = {}): Promise<Answer> => {
    const response = await petstore.fastify.inject({
      method: init.method ?? 'GET',
      url: init.method ? '/v1/pets' : '/v1/pets?limit=1',
      headers,
      payload: init.body,
    });
    return { status: response.statusCode, headers: headersOf(response), json: () => response.json() };
  };
  const from = (address: string, headers: Record<string, string> = {}) => ({ 'x-forwarded-for': address, ...headers });

  /** Spends a key's budget of 3 requests. */
  async function exhaust(key: string): Promise<void> {
    for (let request = 0; request < 3; request++) expect((await send(auth(key))).status).toBe(200);
  }

  const refusals = async () => {
    const metrics = (await petstore.fastify.inject({ method: 'GET', url: '/metrics' })).body;
    const count = (policy: string) =>
      Number(new RegExp(`^petstore_rate_limited_total\\{policy="${policy}"\\} (\\d+)$`, 'm').exec(metrics)?.[1] ?? 0);
    return { perKey: count('per-key'), authFailures: count('auth-failures') };
  };

  beforeAll(async () => {
    petstore = await startInProcessApp(
      {
        API_KEYS: KEYS.join(','),
        TRUST_PROXY: 'loopback',
        RATE_LIMIT_PER_MINUTE: '3',
        RATE_LIMIT_AUTH_FAILURES_PER_MINUTE: '2',
      },
      { logs: true },
    );
  });

  afterAll(() => petstore?.close());

  it('counts down each key in the RateLimit header, then answers 429 until the window resets', async () => {
    const key = ownKey();
    for (const remaining of [2, 1, 0]) {
      const response = await send(auth(key));
      expect(response.status).toBe(200);
      expect(response.headers.get('ratelimit-policy')).toBe('"per-key";q=3;w=60');
      expect(response.headers.get('ratelimit')).toMatch(new RegExp(`^"per-key";r=${remaining};t=(60|59|58)$`));
    }
    expectRateLimited(await send(auth(key)), 'per-key', 3);
  });

  it('does not create a pet over the limit', async () => {
    const key = ownKey();
    await exhaust(key);
    const response = await send(
      { ...auth(key), 'content-type': 'application/json' },
      { method: 'POST', body: '{"name":"Over","categoryId":1}' },
    );
    expectRateLimited(response, 'per-key', 3);
  });

  it('leaves the budget of another key untouched', async () => {
    const [spent, other] = [ownKey(), ownKey()];
    await exhaust(spent);
    expectRateLimited(await send(auth(spent)), 'per-key', 3);
    const response = await send(auth(other));
    expect(response.status).toBe(200);
    expect(response.headers.get('ratelimit')).toMatch(/^"per-key";r=2;t=\d+$/);
  });

  it('throttles the failures of an address past its budget, and still admits its valid keys', async () => {
    const address = ownAddress();
    for (const remaining of [1, 0]) {
      const response = await send(from(address, auth('wrong-key')));
      expect(response.status).toBe(401);
      expect(response.headers.get('ratelimit-policy')).toBe('"auth-failures";q=2;w=60');
      expect(response.headers.get('ratelimit')).toMatch(new RegExp(`^"auth-failures";r=${remaining};t=\\d+$`));
    }
    expectRateLimited(await send(from(address, auth('wrong-key'))), 'auth-failures', 2);
    expectRateLimited(await send(from(address)), 'auth-failures', 2);
    // Behind one NAT or proxy, one bad client must not lock out the others: bootstrap and issued keys still work.
    expect((await send(from(address, auth(ownKey())))).status).toBe(200);
    const { token: issued } = await petstore.app.get(IssuedKeys).create('throttled address');
    expect((await send(from(address, auth(issued)))).status).toBe(200);
  });

  it("names the throttled key in the 429's access-log line, as in its admitted requests' lines, never its secret", async () => {
    const key = ownKey();
    await exhaust(key);
    expectRateLimited(await send({ ...auth(key), 'x-request-id': 'throttled-key-429' }), 'per-key', 3);
    const accessLines = petstore.logLines().filter((line) => line.msg === 'request completed');
    const throttled = accessLines.find((line) => line.reqId === 'throttled-key-429');
    expect(throttled).toEqual(expect.objectContaining({ statusCode: 429, key: expect.any(String) }));
    const admitted = accessLines.filter((line) => line.key === throttled?.key);
    expect(admitted.map((line) => line.statusCode)).toEqual([200, 200, 200, 429]);
    expect(JSON.stringify(accessLines)).not.toContain(key);
  });

  it('counts refused requests in /metrics', async () => {
    const before = await refusals();
    const key = ownKey();
    await exhaust(key);
    expectRateLimited(await send(auth(key)), 'per-key', 3);
    const address = ownAddress();
    for (let failure = 0; failure < 2; failure++) expect((await send(from(address, auth('wrong-key')))).status).toBe(401);
    expectRateLimited(await send(from(address, auth('wrong-key'))), 'auth-failures', 2);
    expect(await refusals()).toEqual({ perKey: before.perKey + 1, authFailures: before.authFailures + 1 });
  });
});
