import { describeOn, target } from './support/api';
import { createKey } from './support/keys-cli';
import { databaseEnv, type RunningServer, startServer, testDatabaseUrl } from './support/server';

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

// Rate limits shared by two instances on one PostgreSQL (through PgBouncer on the pooled target) and
// one Redis; CI points TEST_REDIS_URL at the local Redis. One instance's, in memory, in process:
// apps/api/src/own-app/rate-limits.spec.ts and key-lookups.spec.ts.
const redisUrl = process.env.TEST_REDIS_URL;

(redisUrl ? describeOn('pooled') : describe.skip)('rate limits shared through Redis', () => {
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
