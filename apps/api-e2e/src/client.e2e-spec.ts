import { createPet, createPetstoreClient, type Pet } from '@petstore/client';
import { baseUrl, client, expectNoPetWithId, INT64_MAX, INT64_MIN, uniqueName } from './support/api';
import { TEST_API_KEY } from './support/server';

// The happy paths through the typed client generated from the committed OpenAPI document:
// a contract change that breaks clients breaks this build.
describe('the typed client', () => {
  it('adds, gets and lists animals', async () => {
    const petstore = client();
    const name = uniqueName('Typed');
    const created = await petstore.POST('/pets', { body: { name, categoryId: 42n, status: 'pending' } });
    expect(created.response.status).toBe(201);
    expect(created.data).toEqual({ id: expect.any(BigInt), name, categoryId: 42n, status: 'pending' });
    const id = created.data!.id;

    const fetched = await petstore.GET('/pets/{petId}', { params: { path: { petId: id } } });
    expect(fetched.data).toEqual(created.data);

    // The pending pets from this one on: it comes first, whatever other tests have added.
    const listed = await petstore.GET('/pets', { params: { query: { status: 'pending', after: id - 1n, limit: 100 } } });
    expect(listed.data?.every((pet) => pet.status === 'pending')).toBe(true);
    expect(listed.data?.[0]).toEqual(created.data);
  });

  it('reads an Error body for a missing animal, its status a number', async () => {
    await expectNoPetWithId(987654321n);
    const { error, response } = await client().GET('/pets/{petId}', { params: { path: { petId: 987654321n } } });
    expect(response.status).toBe(404);
    expect(error).toEqual({ code: 'PET_NOT_FOUND', message: expect.any(String), status: 404 });
    expect(typeof error?.status).toBe('number');
  });

  // Straight to the service (exact): Prism, when it validates the run, would round these values.
  describe('int64 values, exact both ways over the whole int64 range', () => {
    it(`adds an animal of category ${INT64_MAX}, and gets and lists it with the same bigints`, async () => {
      const petstore = client({ exact: true });
      const created = await petstore.POST('/pets', { body: { name: 'Int64', categoryId: INT64_MAX, status: 'sold' } });
      expect(created.response.status).toBe(201);
      const pet = created.data!;
      expect(pet).toEqual({ id: expect.any(BigInt), name: 'Int64', categoryId: INT64_MAX, status: 'sold' });
      expect(pet.categoryId === INT64_MAX).toBe(true);

      const fetched = await petstore.GET('/pets/{petId}', { params: { path: { petId: pet.id } } });
      expect(fetched.data).toEqual(pet);
      expect(fetched.data!.categoryId === INT64_MAX && fetched.data!.id === pet.id).toBe(true);

      // The page that starts right after the previous id holds this pet first.
      const listed = await petstore.GET('/pets', { params: { query: { after: pet.id - 1n, limit: 1 } } });
      expect(listed.data).toEqual([pet]);
      expect(listed.data![0].categoryId === INT64_MAX).toBe(true);
    });

    it.each([INT64_MAX, INT64_MIN])('sends petId %p exactly (a rounded one would be refused with 400)', async (petId) => {
      await expectNoPetWithId(petId);
      const { error, response } = await client({ exact: true }).GET('/pets/{petId}', { params: { path: { petId } } });
      expect(response.status).toBe(404);
      expect(error).toEqual({ code: 'PET_NOT_FOUND', message: `No pet with id ${petId}`, status: 404 });
    });

    it(`sends the cursor after=${INT64_MAX} exactly: an empty page, not a 400`, async () => {
      const { data, response } = await client({ exact: true }).GET('/pets', { params: { query: { after: INT64_MAX } } });
      expect(response.status).toBe(200);
      expect(data).toEqual([]);
    });
  });

  describe('createPet, which retries safely with an Idempotency-Key', () => {
    it('adds an animal and returns it; a retry with the same key returns the same animal', async () => {
      const petstore = client();
      const name = uniqueName('Once');
      const pet = await createPet(petstore, { name, categoryId: 5n, status: 'sold' });
      expect(pet).toEqual({ id: expect.any(BigInt), name, categoryId: 5n, status: 'sold' });

      const key = crypto.randomUUID();
      const first = await createPet(petstore, { name: 'Keyed', categoryId: 6n }, { idempotencyKey: key });
      const again = await createPet(petstore, { name: 'Keyed', categoryId: 6n }, { idempotencyKey: key });
      expect(again).toEqual(first);
    });

    it('returns the one animal when the answer to its first attempt is lost on the way back', async () => {
      let attempts = 0;
      // The request reaches the service and the pet is created; the client hears only a network error.
      const losingFirstAnswer = async (request: Request): Promise<Response> => {
        const response = await fetch(request);
        if (++attempts === 1) throw new TypeError('fetch failed: the connection was reset');
        return response;
      };
      const petstore = createPetstoreClient(`${baseUrl()}/v1`, TEST_API_KEY, { fetch: losingFirstAnswer });
      const name = `LostAnswer-${crypto.randomUUID()}`;
      const pet = await createPet(petstore, { name, categoryId: INT64_MAX }, { baseDelayMs: 10 });

      expect(attempts).toBe(2);
      expect(pet).toEqual({ id: expect.any(BigInt), name, categoryId: INT64_MAX, status: 'available' });
      // The lost attempt created it; the retry, which would have come right after, created nothing:
      // every page from it on (other tests add pets meanwhile) holds it alone under its name.
      const named: Pet[] = [];
      for (let after: bigint | undefined = pet.id - 1n; after !== undefined;) {
        const page: Pet[] = (await client({ exact: true }).GET('/pets', { params: { query: { after, limit: 100 } } })).data ?? [];
        named.push(...page.filter((other) => other.name === name));
        after = page.length === 100 ? page[99].id : undefined;
      }
      expect(named).toEqual([pet]);
    });
  });
});
