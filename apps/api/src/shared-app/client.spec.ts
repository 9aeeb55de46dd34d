import { createPet, getIfChanged, type Pet } from '@petstore/client';
import { client, expectNoPetWithId, INT64_MAX, INT64_MIN, injectFetch } from '../testing/http';
import { sharedApp, type InProcessApp } from '../testing/in-process-app';
import { walkPets, type WalkPetsQuery } from '@petstore/client';

let petstore: InProcessApp;
beforeAll(async () => {
  petstore = await sharedApp();
});

// The happy paths through the typed client generated from the committed OpenAPI document, on the
// real application in process (its fetch answered by inject): a contract change that breaks
// clients breaks this build.
describe('the typed client', () => {
  it('adds, gets and lists animals', async () => {
    const typed = client(petstore);
    const name = 'Typed';
    const created = await typed.POST('/pets', { body: { name, categoryId: 42n, status: 'pending' } });
    expect(created.response.status).toBe(201);
    expect(created.data).toEqual({ id: expect.any(BigInt), name, categoryId: 42n, status: 'pending' });
    const id = created.data!.id;

    const fetched = await typed.GET('/pets/{petId}', { params: { path: { petId: id } } });
    expect(fetched.data).toEqual(created.data);

    // The pending pets from this one on: it comes first, whatever other tests have added.
    const listed = await typed.GET('/pets', { params: { query: { status: 'pending', after: id - 1n, limit: 100 } } });
    expect(listed.data?.every((pet) => pet.status === 'pending')).toBe(true);
    expect(listed.data?.[0]).toEqual(created.data);
  });

  it('reads an Error body for a missing animal, its status a number', async () => {
    await expectNoPetWithId(petstore, 987654321n);
    const { error, response } = await client(petstore).GET('/pets/{petId}', { params: { path: { petId: 987654321n } } });
    expect(response.status).toBe(404);
    expect(error).toEqual({ code: 'PET_NOT_FOUND', message: expect.any(String), status: 404 });
    expect(typeof error?.status).toBe('number');
  });

  it("walks every page of the list, following the service's next links, with a status filter or without", async () => {
    const typed = client(petstore);
    const statuses = ['sold', 'pending', 'sold', 'sold'] as const;
    const pets: Pet[] = [];
    for (const status of statuses)
      pets.push((await typed.POST('/pets', { body: { name: 'Walked', categoryId: INT64_MAX, status } })).data!);
    const walked = async (query: WalkPetsQuery) => {
      const seen: Pet[] = [];
      for await (const pet of walkPets(typed, { after: pets[0].id - 1n, ...query })) seen.push(pet);
      return seen;
    };
    // Pages of 2, 2 and an empty one (a full last page links to it); of the sold ones: 2, then 1.
    expect(await walked({ limit: 2 })).toEqual(pets);
    expect(await walked({ limit: 2, status: 'sold' })).toEqual(pets.filter(({ status }) => status === 'sold'));
  });

  describe('int64 values, exact both ways over the whole int64 range', () => {
    it(`adds an animal of category ${INT64_MAX}, and gets and lists it with the same bigints`, async () => {
      const typed = client(petstore);
      const created = await typed.POST('/pets', { body: { name: 'Int64', categoryId: INT64_MAX, status: 'sold' } });
      expect(created.response.status).toBe(201);
      const pet = created.data!;
      expect(pet).toEqual({ id: expect.any(BigInt), name: 'Int64', categoryId: INT64_MAX, status: 'sold' });
      expect(pet.categoryId === INT64_MAX).toBe(true);

      const fetched = await typed.GET('/pets/{petId}', { params: { path: { petId: pet.id } } });
      expect(fetched.data).toEqual(pet);
      expect(fetched.data!.categoryId === INT64_MAX && fetched.data!.id === pet.id).toBe(true);

      // The page that starts right after the previous id holds this pet first.
      const listed = await typed.GET('/pets', { params: { query: { after: pet.id - 1n, limit: 1 } } });
      expect(listed.data).toEqual([pet]);
      expect(listed.data![0].categoryId === INT64_MAX).toBe(true);
    });

    it.each([INT64_MAX, INT64_MIN])('sends petId %p exactly (a rounded one would be refused with 400)', async (petId) => {
      await expectNoPetWithId(petstore, petId);
      const { error, response } = await client(petstore).GET('/pets/{petId}', { params: { path: { petId } } });
      expect(response.status).toBe(404);
      expect(error).toEqual({ code: 'PET_NOT_FOUND', message: `No pet with id ${petId}`, status: 404 });
    });

    it(`sends the cursor after=${INT64_MAX} exactly: an empty page, not a 400`, async () => {
      const { data, response } = await client(petstore).GET('/pets', { params: { query: { after: INT64_MAX } } });
      expect(response.status).toBe(200);
      expect(data).toEqual([]);
    });
  });

  describe('createPet, which retries safely with an Idempotency-Key', () => {
    it('adds an animal and returns it; a retry with the same key returns the same animal', async () => {
      const typed = client(petstore);
      const name = 'Once';
      const pet = await createPet(typed, { name, categoryId: 5n, status: 'sold' });
      expect(pet).toEqual({ id: expect.any(BigInt), name, categoryId: 5n, status: 'sold' });

      const key = crypto.randomUUID();
      const first = await createPet(typed, { name: 'Keyed', categoryId: 6n }, { idempotencyKey: key });
      const again = await createPet(typed, { name: 'Keyed', categoryId: 6n }, { idempotencyKey: key });
      expect(again).toEqual(first);
    });

    it('returns the one animal when the answer to its first attempt is lost on the way back', async () => {
      let attempts = 0;
      // The request reaches the service and the pet is created; the client hears only a network error.
      const answer = injectFetch(petstore.fastify);
      const losingFirstAnswer = async (request: Request): Promise<Response> => {
        const response = await answer(request);
        if (++attempts === 1) throw new TypeError('fetch failed: the connection was reset');
        return response;
      };
      const losing = client(petstore, losingFirstAnswer as typeof fetch);
      const name = `LostAnswer-${crypto.randomUUID()}`;
      const pet = await createPet(losing, { name, categoryId: INT64_MAX }, { baseDelayMs: 10 });

      expect(attempts).toBe(2);
      expect(pet).toEqual({ id: expect.any(BigInt), name, categoryId: INT64_MAX, status: 'available' });
      // The lost attempt created it; the retry, which would have come right after, created nothing:
      // every page from it on holds it alone under its name.
      const named: Pet[] = [];
      for await (const other of walkPets(client(petstore), { after: pet.id - 1n, limit: 100 })) if (other.name === name) named.push(other);
      expect(named).toEqual([pet]);
    });
  });

  describe('conditional GET (getIfChanged)', () => {
    it('gets a pet, then "not modified" until it changes, then the changed pet', async () => {
      const typed = client(petstore);
      const pet = (await typed.POST('/pets', { body: { name: 'Polled', categoryId: INT64_MAX } })).data!;
      const init = { params: { path: { petId: pet.id } } };
      const first = await getIfChanged(typed, '/pets/{petId}', init);
      expect(first).toMatchObject({ notModified: false, data: pet, etag: expect.any(String) });

      const unchanged = await getIfChanged(typed, '/pets/{petId}', init, first.etag);
      expect({ notModified: unchanged.notModified, data: unchanged.data, etag: unchanged.etag }).toEqual({
        notModified: true,
        data: undefined,
        etag: first.etag,
      });

      await petstore.sql('UPDATE pets SET status = $1 WHERE id = $2', ['sold', pet.id]);
      const changed = await getIfChanged(typed, '/pets/{petId}', init, first.etag);
      expect(changed).toMatchObject({ notModified: false, data: { ...pet, status: 'sold' } });
      expect(changed.etag).not.toBe(first.etag);
    });

    it('polls a page: "not modified" until a pet is added within it', async () => {
      const typed = client(petstore);
      const pet = (await typed.POST('/pets', { body: { name: 'Paged', categoryId: 1n } })).data!;
      const init = { params: { query: { after: pet.id - 1n, limit: 100 } } };
      const first = await getIfChanged(typed, '/pets', init);
      expect(first.data).toEqual([pet]);
      expect((await getIfChanged(typed, '/pets', init, first.etag)).notModified).toBe(true);
      const added = (await typed.POST('/pets', { body: { name: 'Paged', categoryId: 2n } })).data!;
      expect((await getIfChanged(typed, '/pets', init, first.etag)).data).toEqual([pet, added]);
    });
  });
});
