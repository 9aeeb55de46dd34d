import { randomUUID } from 'node:crypto';
import { MAX_COUNTED_CLIENTS, rateLimitHeaders, RateLimits, UNKNOWN_KEY_LOOKUPS_PER_SECOND } from './rate-limits';

describe('RateLimits in memory', () => {
  afterEach(() => jest.useRealTimers());

  it('counts down each key on its own and refuses the request past the limit until the window ends', async () => {
    jest.useFakeTimers({ now: 0 });
    const limits = new RateLimits({ perKeyPerMinute: 2, authFailuresPerMinute: 5 });

    await expect(limits.consumeRequest('a')).resolves.toEqual({
      policy: 'per-key',
      limit: 2,
      remaining: 1,
      resetSeconds: 60,
      exceeded: false,
    });
    jest.advanceTimersByTime(20_500);
    await expect(limits.consumeRequest('a')).resolves.toMatchObject({ remaining: 0, resetSeconds: 40, exceeded: false });
    await expect(limits.consumeRequest('a')).resolves.toMatchObject({ remaining: 0, resetSeconds: 40, exceeded: true });
    await expect(limits.consumeRequest('b')).resolves.toMatchObject({ remaining: 1, exceeded: false });

    jest.advanceTimersByTime(39_500);
    await expect(limits.consumeRequest('a')).resolves.toMatchObject({ remaining: 1, resetSeconds: 60, exceeded: false });
  });

  it('refuses an address past its failed authentications until the window ends, and no other address', async () => {
    jest.useFakeTimers({ now: 0 });
    const limits = new RateLimits({ perKeyPerMinute: 100, authFailuresPerMinute: 1 });

    await expect(limits.consumeAuthFailure('10.0.0.1')).resolves.toMatchObject({ policy: 'auth-failures', remaining: 0, exceeded: false });
    await expect(limits.consumeAuthFailure('10.0.0.1')).resolves.toMatchObject({ remaining: 0, resetSeconds: 60, exceeded: true });
    await expect(limits.consumeAuthFailure('10.0.0.2')).resolves.toMatchObject({ exceeded: false });

    jest.advanceTimersByTime(60_000);
    await expect(limits.consumeAuthFailure('10.0.0.1')).resolves.toMatchObject({ exceeded: false });
  });

  it(`allows ${UNKNOWN_KEY_LOOKUPS_PER_SECOND} lookups of unknown keys a second per address`, async () => {
    jest.useFakeTimers({ now: 0 });
    const limits = new RateLimits({ perKeyPerMinute: 100, authFailuresPerMinute: 100 });
    const allowed = async (address: string, times: number) => {
      let count = 0;
      for (let attempt = 0; attempt < times; attempt++) if (await limits.mayLookUpUnknownKey(address)) count++;
      return count;
    };

    expect(await allowed('10.0.0.1', 50)).toBe(UNKNOWN_KEY_LOOKUPS_PER_SECOND);
    expect(await allowed('10.0.0.2', 1)).toBe(1);
    jest.advanceTimersByTime(1000);
    expect(await allowed('10.0.0.1', 50)).toBe(UNKNOWN_KEY_LOOKUPS_PER_SECOND);
  });

  it(`keeps counts for at most ${MAX_COUNTED_CLIENTS} clients, forgetting the least recent`, async () => {
    const limits = new RateLimits({ perKeyPerMinute: 100, authFailuresPerMinute: 1 });
    await limits.consumeAuthFailure('first');
    for (let client = 0; client < MAX_COUNTED_CLIENTS; client++) await limits.consumeAuthFailure(`flood-${client}`);
    // Forgotten: 'first' starts a fresh window instead of being over its limit.
    await expect(limits.consumeAuthFailure('first')).resolves.toMatchObject({ exceeded: false });
  });
});

describe('rateLimitHeaders', () => {
  it('writes the RateLimit-Policy and RateLimit structured fields', () => {
    expect(rateLimitHeaders({ policy: 'per-key', limit: 6000, remaining: 5999, resetSeconds: 42, exceeded: false })).toEqual({
      'ratelimit-policy': '"per-key";q=6000;w=60',
      ratelimit: '"per-key";r=5999;t=42',
    });
  });
});

// Needs a Redis: CI points TEST_REDIS_URL at the local one.
const redisUrl = process.env['TEST_REDIS_URL'];

(redisUrl ? describe : describe.skip)('RateLimits on Redis', () => {
  const started: RateLimits[] = [];
  const start = async (options: { perKeyPerMinute: number; redisUrl?: string }) => {
    const limits = new RateLimits({ authFailuresPerMinute: 10, ...options });
    await limits.onModuleInit();
    started.push(limits);
    return limits;
  };

  afterAll(async () => {
    await Promise.all(started.map((limits) => limits.onApplicationShutdown()));
  });

  it('shares one budget between instances', async () => {
    const key = randomUUID();
    const first = await start({ perKeyPerMinute: 3, redisUrl });
    const second = await start({ perKeyPerMinute: 3, redisUrl });

    await expect(first.consumeRequest(key)).resolves.toMatchObject({ remaining: 2 });
    await expect(second.consumeRequest(key)).resolves.toMatchObject({ remaining: 1 });
    await expect(first.consumeRequest(key)).resolves.toMatchObject({ remaining: 0, exceeded: false });
    await expect(second.consumeRequest(key)).resolves.toMatchObject({ exceeded: true });
  });

  it('counts in memory while Redis cannot be reached, instead of failing requests', async () => {
    const limits = await start({ perKeyPerMinute: 1, redisUrl: 'redis://127.0.0.1:1' });
    await expect(limits.consumeRequest('a')).resolves.toMatchObject({ remaining: 0, exceeded: false });
    await expect(limits.consumeRequest('a')).resolves.toMatchObject({ exceeded: true });
  });
});
