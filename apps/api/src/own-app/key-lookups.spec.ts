import { randomBytes } from 'node:crypto';
import { type InProcessApp, startInProcessApp } from '../testing/in-process-app';

// Unknown keys that look like issued ones cost a database lookup each: bounded per client address,
// on the real application in process.

const auth = (key: string) => ({ authorization: `Bearer ${key}` });

describe('database lookups of unknown keys', () => {
  let petstore: InProcessApp;

  beforeAll(async () => {
    petstore = await startInProcessApp({ RATE_LIMIT_AUTH_FAILURES_PER_MINUTE: '1000000' });
  });

  afterAll(() => petstore?.close());

  const lookups = async () =>
    Number(/^petstore_api_key_lookups_total (\d+)$/m.exec((await petstore.fastify.inject({ method: 'GET', url: '/metrics' })).body)?.[1]);

  it('stay within 10 a second per address, however many random keys arrive at once', async () => {
    const before = await lookups();
    const started = Date.now();
    // 1,500 random keys, 250 requests at a time.
    const keys = Array.from({ length: 1500 }, () => `ps_${randomBytes(6).toString('hex')}_${randomBytes(32).toString('base64url')}`);
    const statuses: number[] = [];
    await Promise.all(
      Array.from({ length: 250 }, async () => {
        for (let key = keys.pop(); key !== undefined; key = keys.pop()) {
          statuses.push((await petstore.fastify.inject({ method: 'GET', url: '/v1/pets?limit=1', headers: auth(key) })).statusCode);
        }
      }),
    );
    const seconds = Math.ceil((Date.now() - started) / 1000);
    // Every key is refused; on a machine this loaded, a lookup may also time out (503), never succeed.
    expect(statuses.filter((status) => status !== 401 && status !== 503)).toEqual([]);
    expect(statuses.filter((status) => status === 401).length).toBeGreaterThan(1400);
    expect((await lookups()) - before).toBeLessThanOrEqual(10 * (seconds + 1));
  });
});
