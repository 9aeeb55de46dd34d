import { call, createPet, expectError } from './support/api';

interface PetBody {
  id: number;
  name: string;
  categoryId: number;
  status: string;
}

const list = async (query = ''): Promise<PetBody[]> => {
  const response = await call('GET', `/v1/pets${query}`);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  expect(Array.isArray(response.body)).toBe(true);
  return response.body as PetBody[];
};

describe('GET /v1/pets', () => {
  beforeAll(async () => {
    // Enough pets of every status for the default page and the filters.
    const statuses = ['available', 'pending', 'sold'] as const;
    for (let i = 0; i < 22; i++) await createPet({ name: `List ${i}`, status: statuses[i % 3] });
  });

  it('returns a bare array of pets, 20 by default, in ascending id order', async () => {
    const pets = await list();
    expect(pets).toHaveLength(20);
    for (const pet of pets) expect(Object.keys(pet).sort()).toEqual(['categoryId', 'id', 'name', 'status']);
    const ids = pets.map((pet) => pet.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
  });

  it.each([1, 5, 21, 100])('returns at most limit=%i pets', async (limit) => {
    const pets = await list(`?limit=${limit}`);
    expect(pets.length).toBeLessThanOrEqual(limit);
    if (limit <= 21) expect(pets).toHaveLength(limit);
  });

  it.each(['available', 'pending', 'sold'])('filters by status=%s', async (status) => {
    const pets = await list(`?status=${status}&limit=100`);
    expect(pets.length).toBeGreaterThan(0);
    expect(pets.every((pet) => pet.status === status)).toBe(true);
  });

  it('combines the filter with the limit', async () => {
    const pets = await list('?status=pending&limit=2');
    expect(pets).toHaveLength(2);
    expect(pets.every((pet) => pet.status === 'pending')).toBe(true);
  });

  it('pages with after= and a Link to the next full page, keeping the filter', async () => {
    const first = await call('GET', '/v1/pets?status=sold&limit=2');
    const firstPage = first.body as PetBody[];
    const next = /^<([^>]+)>; rel="next"$/.exec(first.headers.get('link') ?? '')?.[1];
    expect(next).toBe(`/v1/pets?limit=2&status=sold&after=${firstPage[1].id}`);
    const second = (await call('GET', next!)).body as PetBody[];
    expect(second.length).toBeGreaterThan(0);
    expect(second.every((pet) => pet.status === 'sold' && pet.id > firstPage[1].id)).toBe(true);
  });

  it('visits every pet exactly once when following the links', async () => {
    const all = (await list('?limit=100&status=pending')).map((pet) => pet.id);
    const seen: number[] = [];
    let path: string | undefined = '/v1/pets?limit=3&status=pending';
    while (path) {
      const response = await call('GET', path);
      seen.push(...(response.body as PetBody[]).map((pet) => pet.id));
      path = /^<([^>]+)>; rel="next"$/.exec(response.headers.get('link') ?? '')?.[1];
    }
    // Pets other tests add meanwhile can only come after: ids grow.
    expect(seen.slice(0, all.length)).toEqual(all);
    expect(seen).toEqual([...new Set(seen)].sort((a, b) => a - b));
  });

  it('sends no next link for a page that is not full', async () => {
    const response = await call('GET', '/v1/pets?limit=100&after=9223372036854775807');
    expect(response.body).toEqual([]);
    expect(response.headers.get('link')).toBeNull();
  });

  it.each(['x', '1.5', '9223372036854775808', '', '01'])('refuses after=%p with 400', async (after) => {
    const response = await call('GET', `/v1/pets?after=${encodeURIComponent(after)}`);
    expectError(response, 400, 'VALIDATION_FAILED');
    expect((response.body as { message: string }).message).toContain('after');
  });

  it('ignores query parameters it does not know', async () => {
    expect(await list('?limit=3&foo=bar')).toHaveLength(3);
  });

  it.each(['0', '101', '-1', 'abc', '1.5', '1e2', '', '+5', '05', ' 5', '0x10', '99999999999999999999'])(
    'refuses limit=%p with 400',
    async (limit) => {
      const response = await call('GET', `/v1/pets?limit=${encodeURIComponent(limit)}`);
      expectError(response, 400, 'VALIDATION_FAILED');
      expect((response.body as { message: string }).message).toContain('limit');
    },
  );

  it('refuses a repeated limit', async () => {
    expectError(await call('GET', '/v1/pets?limit=1&limit=2'), 400, 'VALIDATION_FAILED');
  });

  it.each(['AVAILABLE', 'unknown', '', 'available,sold'])('refuses status=%p with 400', async (status) => {
    const response = await call('GET', `/v1/pets?status=${encodeURIComponent(status)}`);
    expectError(response, 400, 'VALIDATION_FAILED');
    expect((response.body as { message: string }).message).toContain('status');
  });

  it('refuses a repeated status', async () => {
    expectError(await call('GET', '/v1/pets?status=sold&status=pending'), 400, 'VALIDATION_FAILED');
  });
});
