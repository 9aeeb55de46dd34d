import { Redis } from 'ioredis';
import { randomUUID } from 'node:crypto';
import { type AddressInfo, createServer, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { RATE_LIMIT_WINDOW_SECONDS } from '@petstore/http';
import { rateLimitHeaders, RateLimits, UNKNOWN_KEY_LOOKUPS_PER_SECOND } from './rate-limits';

/** Whether the policy's limiter (rate-limiter-flexible's own get()) still holds a count for the client. */
async function holds(limits: RateLimits, policy: 'perKey' | 'authFailures' | 'unknownKeyLookups', client: string): Promise<boolean> {
  return (await limits[policy].limiter.get(client)) !== null;
}

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

  it('forgets a client when its window ends', async () => {
    jest.useFakeTimers({ now: 0 });
    const limits = new RateLimits({ perKeyPerMinute: 100, authFailuresPerMinute: 1 });
    const addresses = Array.from({ length: 1000 }, (_, client) => `flood-${client}`);
    for (const address of addresses) await limits.consumeAuthFailure(address);
    expect(await holds(limits, 'authFailures', addresses[0])).toBe(true);

    jest.advanceTimersByTime(RATE_LIMIT_WINDOW_SECONDS * 1000);
    const held = await Promise.all(addresses.map((address) => holds(limits, 'authFailures', address)));
    expect(held.filter(Boolean)).toHaveLength(0);
  });

  it('holds the clients of one window only, whatever their number: 100,000 addresses are gone a second later', async () => {
    const limits = new RateLimits({ perKeyPerMinute: 100, authFailuresPerMinute: 100 });
    const addresses = Array.from({ length: 100_000 }, (_, client) => `10.${client >> 16}.${(client >> 8) & 255}.${client & 255}`);
    for (const address of addresses) await limits.mayLookUpUnknownKey(address);
    const last = addresses[addresses.length - 1];
    expect(await holds(limits, 'unknownKeyLookups', last)).toBe(true);

    // The lookups' window is a second; its limiter drops each address when its window ends.
    await sleep(1100);
    const held = await Promise.all(addresses.map((address) => holds(limits, 'unknownKeyLookups', address)));
    expect(held.filter(Boolean)).toHaveLength(0);
  }, 30_000);
});

describe('rateLimitHeaders', () => {
  it('writes the RateLimit-Policy and RateLimit structured fields', () => {
    expect(rateLimitHeaders({ policy: 'per-key', limit: 6000, remaining: 5999, resetSeconds: 42, exceeded: false })).toEqual({
      'ratelimit-policy': '"per-key";q=6000;w=60',
      ratelimit: '"per-key";r=5999;t=42',
    });
  });
});

describe('RateLimits on a Redis whose reply is nested too deep to parse (a hostile server, or one on the path)', () => {
  it('counts in memory, as while Redis is down, and the process goes on', async () => {
    const sockets = new Set<Socket>();
    const hostile = createServer((socket) => {
      sockets.add(socket);
      socket.on('error', () => undefined);
      socket.on('data', () => socket.write('*1\r\n'.repeat(100_000) + ':1\r\n'));
    });
    await new Promise<void>((listening) => hostile.listen(0, '127.0.0.1', listening));
    const redisUrl = `redis://127.0.0.1:${(hostile.address() as AddressInfo).port}`;
    const limits = new RateLimits({
      perKeyPerMinute: 1,
      authFailuresPerMinute: 10,
      redisUrl,
      redisWaitMs: { connect: 1000, command: 250 },
    });
    try {
      await limits.onModuleInit();
      await expect(limits.consumeRequest('a')).resolves.toMatchObject({ remaining: 0, exceeded: false });
      await expect(limits.consumeRequest('a')).resolves.toMatchObject({ exceeded: true });
    } finally {
      limits.onApplicationShutdown();
      for (const socket of sockets) socket.destroy();
      hostile.close();
    }
  });
});

// Needs a Redis: CI points TEST_REDIS_URL at the local one.
const redisUrl = process.env['TEST_REDIS_URL'];

(redisUrl ? describe : describe.skip)('RateLimits on Redis', () => {
  const started: RateLimits[] = [];
  // Generous waits: on a loaded machine the first command (the script's load) can take longer than the
  // service's 250 ms, and would then be counted in memory, which is not what these tests are about.
  const redisWaitMs = { connect: 10_000, command: 10_000 };
  const start = async (options: { perKeyPerMinute: number; redisUrl?: string; redisWaitMs?: { connect: number; command: number } }) => {
    const limits = new RateLimits({ authFailuresPerMinute: 10, redisWaitMs, ...options });
    await limits.onModuleInit();
    started.push(limits);
    return limits;
  };
  let redis: Redis;

  beforeAll(() => {
    redis = new Redis(redisUrl as string);
  });

  afterAll(() => {
    redis.disconnect();
    for (const limits of started) limits.onApplicationShutdown();
  });

  it('shares one budget between instances', async () => {
    const key = randomUUID();
    const first = await start({ perKeyPerMinute: 3, redisUrl });
    const second = await start({ perKeyPerMinute: 3, redisUrl });

    await expect(first.consumeRequest(key)).resolves.toMatchObject({ remaining: 2 });
    await expect(second.consumeRequest(key)).resolves.toMatchObject({ remaining: 1 });
    await expect(first.consumeRequest(key)).resolves.toMatchObject({ remaining: 0, exceeded: false });
    await expect(second.consumeRequest(key)).resolves.toMatchObject({ exceeded: true });
    expect(Number(await redis.get(`petstore:rate-limit:per-key:${key}`))).toBe(4);
  });

  it('refuses a client over its limit from memory until its window ends, without asking Redis', async () => {
    const key = randomUUID();
    const limits = await start({ perKeyPerMinute: 1, redisUrl });
    await expect(limits.consumeRequest(key)).resolves.toMatchObject({ exceeded: false });
    await expect(limits.consumeRequest(key)).resolves.toMatchObject({ exceeded: true });

    // Redis's count gone: a request that reached Redis would start a fresh window.
    await redis.del(`petstore:rate-limit:per-key:${key}`);
    await expect(limits.consumeRequest(key)).resolves.toMatchObject({ remaining: 0, exceeded: true });
    expect(await redis.exists(`petstore:rate-limit:per-key:${key}`)).toBe(0);
  });

  it('counts in memory while Redis cannot be reached, instead of failing requests', async () => {
    const limits = await start({ perKeyPerMinute: 1, redisUrl: 'redis://127.0.0.1:1', redisWaitMs: { connect: 200, command: 250 } });
    await expect(limits.consumeRequest('a')).resolves.toMatchObject({ remaining: 0, exceeded: false });
    await expect(limits.consumeRequest('a')).resolves.toMatchObject({ exceeded: true });
  });
});
