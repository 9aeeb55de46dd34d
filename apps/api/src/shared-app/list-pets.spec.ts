import { call, expectError, type ListedPet, nextLink, petsAfter } from '../testing/http';
import { sharedApp, type InProcessApp } from '../testing/in-process-app';

// GET /v1/pets on the real application, in process: pages, filters, cursors and their refusals.

let petstore: InProcessApp;
beforeAll(async () => {
  petstore = await sharedApp();
});

const list = async (query = ''): Promise<ListedPet[]> => {
  const response = await call(petstore, 'GET', `/v1/pets${query}`);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  expect(Array.isArray(response.body)).toBe(true);
  return response.body as ListedPet[];
};

const ascending = (ids: readonly number[]) => [...ids].sort((a, b) => a - b);

describe('GET /v1/pets', () => {
  // Pets of this file's own, enough of every status for the default page and the filters. The
  // tests list from just before these (`after`) and assert about these.
  const statuses = ['available', 'pending', 'sold'] as const;
  const categoryId = 281474976710655n;
  const name = 'List';
  let own: Array<{ id: number; status: string }>;
  /** The cursor just before this file's first pet. */
  let from: number;
  const isOwn = (pet: ListedPet) => pet.name === name && BigInt(pet.categoryId) === categoryId;
  const ownIds = (status?: string) => ascending(own.filter((pet) => !status || pet.status === status).map((pet) => pet.id));

  beforeAll(async () => {
    own = [];
    for (let i = 0; i < 22; i++) {
      const status = statuses[i % 3];
      const created = await call(petstore, 'POST', '/v1/pets', {
        json: `{"name":"${name}","categoryId":${categoryId},"status":"${status}"}`,
      });
      expect(created.status).toBe(201);
      own.push({ id: (created.body as ListedPet).id, status });
    }
    from = Math.min(...own.map((pet) => pet.id)) - 1;
  });

  it('returns a bare array of pets, 20 by default, in ascending id order', async () => {
    const pets = await list(`?after=${from}`);
    expect(pets).toHaveLength(20);
    for (const pet of pets) expect(Object.keys(pet).sort()).toEqual(['categoryId', 'id', 'name', 'status']);
    const ids = pets.map((pet) => pet.id);
    expect(ids).toEqual(ascending(ids));
    expect(ids[0]).toBe(from + 1);
    expect(isOwn(pets[0])).toBe(true);
  });

  it('returns 20 pets without a cursor too, in ascending id order', async () => {
    // 22 pets of this file's own exist: the first page is full, whichever pets it holds.
    const ids = (await list()).map((pet) => pet.id);
    expect(ids).toHaveLength(20);
    expect(ids).toEqual(ascending(ids));
  });

  it.each([1, 5, 21, 100])('returns at most limit=%i pets', async (limit) => {
    const pets = await list(`?limit=${limit}&after=${from}`);
    expect(pets.length).toBeLessThanOrEqual(limit);
    // At least this file's 22 pets come after the cursor.
    if (limit <= 22) expect(pets).toHaveLength(limit);
    else expect(pets.length).toBeGreaterThanOrEqual(22);
  });

  it.each(statuses)('filters by status=%s', async (status) => {
    const pets = await list(`?status=${status}&limit=100&after=${from}`);
    expect(pets.length).toBeGreaterThan(0);
    expect(pets.every((pet) => pet.status === status)).toBe(true);
    // Every pet of this file's with that status, and none with another, over all the pages.
    const all = await petsAfter(petstore, from, `status=${status}`);
    expect(all.every((pet) => pet.status === status)).toBe(true);
    expect(all.filter(isOwn).map((pet) => pet.id)).toEqual(ownIds(status));
  });

  it('combines the filter with the limit', async () => {
    const pets = await list(`?status=pending&limit=2&after=${from}`);
    expect(pets).toHaveLength(2);
    expect(pets.every((pet) => pet.status === 'pending')).toBe(true);
  });

  it('pages with after= and a Link to the next full page, keeping the filter', async () => {
    const first = await call(petstore, 'GET', `/v1/pets?status=sold&limit=2&after=${from}`);
    const firstPage = first.body as ListedPet[];
    expect(firstPage).toHaveLength(2);
    const next = nextLink(first);
    expect(next).toBe(`/v1/pets?limit=2&status=sold&after=${firstPage[1].id}`);
    // This file has 7 sold pets after the cursor: the second page is not empty either.
    const second = (await call(petstore, 'GET', next!)).body as ListedPet[];
    expect(second.length).toBeGreaterThan(0);
    expect(second.every((pet) => pet.status === 'sold' && pet.id > firstPage[1].id)).toBe(true);
  });

  it('visits every pet exactly once when following the links', async () => {
    const seen: ListedPet[] = [];
    let path: string | undefined = `/v1/pets?limit=3&status=pending&after=${from}`;
    while (path) {
      const response = await call(petstore, 'GET', path);
      seen.push(...(response.body as ListedPet[]));
      path = nextLink(response);
    }
    const ids = seen.map((pet) => pet.id);
    // Strictly ascending: no pet twice; and this file's pending pets all there.
    expect(ids).toEqual([...new Set(ascending(ids))]);
    expect(seen.every((pet) => pet.status === 'pending')).toBe(true);
    expect(seen.filter(isOwn).map((pet) => pet.id)).toEqual(ownIds('pending'));
  });

  it('sends no next link for a page that is not full', async () => {
    const response = await call(petstore, 'GET', '/v1/pets?limit=100&after=9223372036854775807');
    expect(response.body).toEqual([]);
    expect(response.headers.get('link')).toBeNull();
  });

  it.each(['x', '1.5', '9223372036854775808', '', '01'])('refuses after=%p with 400', async (after) => {
    const response = await call(petstore, 'GET', `/v1/pets?after=${encodeURIComponent(after)}`);
    expectError(response, 400, 'VALIDATION_FAILED');
    expect((response.body as { message: string }).message).toContain('after');
  });

  it.each(['0', '101', '-1', 'abc', '1.5', '1e2', '', '+5', '05', ' 5', '0x10', '99999999999999999999'])(
    'refuses limit=%p with 400',
    async (limit) => {
      const response = await call(petstore, 'GET', `/v1/pets?limit=${encodeURIComponent(limit)}`);
      expectError(response, 400, 'VALIDATION_FAILED');
      expect((response.body as { message: string }).message).toContain('limit');
    },
  );

  it('refuses a repeated limit', async () => {
    expectError(await call(petstore, 'GET', '/v1/pets?limit=1&limit=2'), 400, 'VALIDATION_FAILED');
  });

  it.each(['AVAILABLE', 'unknown', '', 'available,sold'])('refuses status=%p with 400', async (status) => {
    const response = await call(petstore, 'GET', `/v1/pets?status=${encodeURIComponent(status)}`);
    expectError(response, 400, 'VALIDATION_FAILED');
    expect((response.body as { message: string }).message).toContain('status');
  });

  it('refuses a repeated status', async () => {
    expectError(await call(petstore, 'GET', '/v1/pets?status=sold&status=pending'), 400, 'VALIDATION_FAILED');
  });
});
