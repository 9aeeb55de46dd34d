// A service without REDIS_URL must start without ioredis's modules (docs/performance.md, "Start-up and memory").
jest.mock('ioredis', () => {
  throw new Error('ioredis was loaded although no REDIS_URL was given: import it where the limits connect (onModuleInit)');
});

import { RateLimits } from './rate-limits';

it('counts in memory without loading ioredis when no Redis is given', async () => {
  const limits = new RateLimits({ perKeyPerMinute: 1, authFailuresPerMinute: 1 });
  await limits.onModuleInit();

  await expect(limits.consumeRequest('a')).resolves.toMatchObject({ remaining: 0, exceeded: false });
  await expect(limits.consumeRequest('a')).resolves.toMatchObject({ exceeded: true });
  limits.onApplicationShutdown();
});
