import { createHash } from 'node:crypto';
import type { IdempotentRequest } from '@petstore/domain';
import { openTestDatabase } from '../testing';
import type { Database } from './database';
import { SqlPetRepository } from './sql-pet.repository';

// The pets' SQL on a real database: embedded PGlite, or PostgreSQL when TEST_DATABASE_URL is set.

const INT64_MAX = 9223372036854775807n;
const fingerprint = (text: string) => createHash('sha256').update(text).digest();
let keys = 0;
const keyedRequest = (principal = 'env-1', body = 'body'): IdempotentRequest => ({
  principal,
  key: `key-${++keys}`,
  fingerprint: fingerprint(body),
});

describe('SqlPetRepository', () => {
  let database: Database;
  let close: () => Promise<void>;
  let pets: SqlPetRepository;
  beforeAll(async () => {
    ({ database, close } = await openTestDatabase());
    pets = new SqlPetRepository(database);
  });
  afterAll(() => close?.());

  it('creates a pet with int64 digits kept exactly, and finds it by id', async () => {
    const pet = await pets.create({ name: 'Rex', categoryId: INT64_MAX, status: 'available' });
    expect(pet).toEqual({ id: expect.any(BigInt), name: 'Rex', categoryId: INT64_MAX, status: 'available' });
    expect(await pets.findById(pet.id)).toEqual(pet);
    expect(await pets.findById(INT64_MAX)).toBeUndefined();
  });

  it('lists pages in id order after a cursor, with and without a status', async () => {
    const created = [];
    for (const status of ['sold', 'pending', 'sold', 'sold'] as const)
      created.push(await pets.create({ name: 'Page', categoryId: 1n, status }));
    const after = created[0].id - 1n;
    expect((await pets.list({ limit: 2, after })).map((pet) => pet.id)).toEqual([created[0].id, created[1].id]);
    const sold = await pets.list({ limit: 10, after, status: 'sold' });
    expect(sold.map((pet) => pet.id)).toEqual([created[0].id, created[2].id, created[3].id]);
    expect(await pets.list({ limit: 10, after: created[3].id })).toEqual([]);
  });

  describe('createOnce', () => {
    const pet = { name: 'Once', categoryId: 7n, status: 'available' } as const;

    it('creates on the first request and replays the same pet for the same request, creating nothing more', async () => {
      const request = keyedRequest();
      const first = await pets.createOnce(request, pet, 60);
      expect(first).toEqual({ outcome: 'created', pet: { id: expect.any(BigInt), ...pet } });
      const again = await pets.createOnce(request, { ...pet, name: 'ignored' }, 60);
      expect(again).toEqual(first.outcome === 'created' ? { outcome: 'replayed', pet: first.pet } : undefined);
      expect(await pets.list({ limit: 10, after: (first as { pet: { id: bigint } }).pet.id })).toEqual([]);
    });

    it('refuses the same key with another request as a mismatch', async () => {
      const request = keyedRequest();
      await pets.createOnce(request, pet, 60);
      expect(await pets.createOnce({ ...request, fingerprint: fingerprint('another body') }, pet, 60)).toEqual({ outcome: 'mismatch' });
    });

    it('scopes a key to its principal', async () => {
      const request = keyedRequest('env-1');
      const first = await pets.createOnce(request, pet, 60);
      const other = await pets.createOnce({ ...request, principal: 'env-2' }, pet, 60);
      expect([first.outcome, other.outcome]).toEqual(['created', 'created']);
    });

    it('takes an expired key as new, and sweeps expired records without their pets', async () => {
      const request = keyedRequest();
      const first = await pets.createOnce(request, pet, 0);
      const second = await pets.createOnce(request, pet, 0);
      expect([first.outcome, second.outcome]).toEqual(['created', 'created']);
      expect(await pets.deleteExpiredIdempotencyRecords(1000)).toBeGreaterThanOrEqual(1);
      expect(await pets.deleteExpiredIdempotencyRecords(1000)).toBe(0);
      if (first.outcome === 'created') expect(await pets.findById(first.pet.id)).toEqual(first.pet);
    });
  });
});
