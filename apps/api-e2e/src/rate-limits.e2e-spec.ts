import { randomBytes } from 'node:crypto';
import { target } from './support/api';
import { createKey } from './support/keys-cli';
import { databaseEnv, type RunningServer, startServer, TEST_API_KEY, testDatabaseUrl } from './support/server';

const OTHER_KEY = 'e2e-other-key-0123456789';
const auth = (key: string) => ({ authorization: `Bearer ${key}` });

async function expectRateLimited(response: Response, policy: string, limit: number): Promise<void> {
  expect(response.status).toBe(429);
  expect(await response.json()).toEqual({
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
  let server: RunningServer;
  const env = databaseEnv(target);
  const send = (headers: Record<string, string>, init: RequestInit = {}) => fetch(`${server.url}/v1/pets?limit=1`, { ...init, headers });

  beforeAll(async () => {
    server = await startServer({
      ...env,
      API_KEYS: `${TEST_API_KEY},${OTHER_KEY}`,
      RATE_LIMIT_PER_MINUTE: '3',
      RATE_LIMIT_AUTH_FAILURES_PER_MINUTE: '2',
    });
  });

  afterAll(async () => {
    await server.stop();
  });

  it('counts down each key in the RateLimit header, then answers 429 until the window resets', async () => {
    for (const remaining of [2, 1, 0]) {
      const response = await send(auth(TEST_API_KEY));
      expect(response.status).toBe(200);
      expect(response.headers.get('ratelimit-policy')).toBe('"per-key";q=3;w=60');
      expect(response.headers.get('ratelimit')).toMatch(new RegExp(`^"per-key";r=${remaining};t=(60|59|58)$`));
    }
    await expectRateLimited(await send(auth(TEST_API_KEY)), 'per-key', 3);
  });

  it('does not create a pet over the limit', async () => {
    const response = await fetch(`${server.url}/v1/pets`, {
      method: 'POST',
      headers: { ...auth(TEST_API_KEY), 'content-type': 'application/json' },
      body: '{"name":"Over","categoryId":1}',
    });
    await expectRateLimited(response, 'per-key', 3);
  });

  it('leaves the budget of another key untouched', async () => {
    const response = await send(auth(OTHER_KEY));
    expect(response.status).toBe(200);
    expect(response.headers.get('ratelimit')).toMatch(/^"per-key";r=2;t=\d+$/);
  });

  it('throttles the failures of an address past its budget, and still admits its valid keys', async () => {
    for (const remaining of [1, 0]) {
      const response = await send(auth('wrong-key'));
      expect(response.status).toBe(401);
      expect(response.headers.get('ratelimit-policy')).toBe('"auth-failures";q=2;w=60');
      expect(response.headers.get('ratelimit')).toMatch(new RegExp(`^"auth-failures";r=${remaining};t=\\d+$`));
    }
    await expectRateLimited(await send(auth('wrong-key')), 'auth-failures', 2);
    await expectRateLimited(await send({}), 'auth-failures', 2);
    // Behind one NAT or proxy, one bad client must not lock out the others: bootstrap and issued keys still work.
    expect((await send(auth(OTHER_KEY))).status).toBe(200);
    const issued = await createKey('e2e throttled address', env);
    expect((await send(auth(issued))).status).toBe(200);
  });

  it('counts refused requests in /metrics', async () => {
    const metrics = await (await fetch(`${server.url}/metrics`)).text();
    expect(metrics).toMatch(/^petstore_rate_limited_total\{policy="per-key"\} 2$/m);
    expect(metrics).toMatch(/^petstore_rate_limited_total\{policy="auth-failures"\} 2$/m);
  });
});

describe('database lookups of unknown keys', () => {
  let server: RunningServer;

  beforeAll(async () => {
    server = await startServer({ ...databaseEnv(target), RATE_LIMIT_AUTH_FAILURES_PER_MINUTE: '1000000' });
  });

  afterAll(async () => {
    await server.stop();
  });

  const lookups = async () =>
    Number(/^petstore_api_key_lookups_total (\d+)$/m.exec(await (await fetch(`${server.url}/metrics`)).text())?.[1]);

  it('stay within 10 a second per address, however many random keys arrive at once', async () => {
    const before = await lookups();
    const started = Date.now();
    const statuses = await Promise.all(
      Array.from({ length: 1500 }, async () => {
        const key = `ps_${randomBytes(6).toString('hex')}_${randomBytes(32).toString('base64url')}`;
        return (await fetch(`${server.url}/v1/pets?limit=1`, { headers: auth(key) })).status;
      }),
    );
    const seconds = Math.ceil((Date.now() - started) / 1000);
    // Every key is refused; on a machine this loaded, a lookup may also time out (503), never succeed.
    expect(statuses.filter((status) => status !== 401 && status !== 503)).toEqual([]);
    expect(statuses.filter((status) => status === 401).length).toBeGreaterThan(1400);
    expect((await lookups()) - before).toBeLessThanOrEqual(10 * (seconds + 1));
  });
});

// Two instances on one PostgreSQL (through PgBouncer on the pooled target) and one Redis; CI
// points TEST_REDIS_URL at the local Redis.
const redisUrl = process.env.TEST_REDIS_URL;

(target !== 'pglite' && redisUrl ? describe : describe.skip)('rate limits shared through Redis', () => {
  const servers: RunningServer[] = [];

  beforeAll(async () => {
    const env = { REDIS_URL: redisUrl ?? '', RATE_LIMIT_PER_MINUTE: '4' };
    servers.push(
      ...(await Promise.all([startServer({ ...env, ...databaseEnv(target) }), startServer({ ...env, ...databaseEnv(target) })])),
    );
  });

  afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop()));
  });

  it('draws one budget from both instances', async () => {
    // A key of its own, so that no earlier run's count in Redis gets in the way.
    const key = await createKey('e2e shared budget', { DATABASE_URL: testDatabaseUrl(target) });
    const [first, second] = servers;
    const remaining: string[] = [];
    for (const server of [first, second, first, second]) {
      const response = await fetch(`${server.url}/v1/pets?limit=1`, { headers: auth(key) });
      expect(response.status).toBe(200);
      remaining.push(/r=(\d+)/.exec(response.headers.get('ratelimit') ?? '')?.[1] ?? '');
    }
    expect(remaining).toEqual(['3', '2', '1', '0']);
    await expectRateLimited(await fetch(`${first.url}/v1/pets?limit=1`, { headers: auth(key) }), 'per-key', 4);
    await expectRateLimited(await fetch(`${second.url}/v1/pets?limit=1`, { headers: auth(key) }), 'per-key', 4);
  });
});
