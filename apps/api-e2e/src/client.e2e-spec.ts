import { client } from './support/api';

// The happy paths through the typed client generated from the committed OpenAPI document:
// a contract change that breaks clients breaks this build.
describe('the typed client', () => {
  it('adds, gets and lists animals', async () => {
    const petstore = client();
    const created = await petstore.POST('/pets', { body: { name: 'Typed', categoryId: 42, status: 'pending' } });
    expect(created.response.status).toBe(201);
    expect(created.data).toEqual({ id: expect.any(Number), name: 'Typed', categoryId: 42, status: 'pending' });
    const id = created.data!.id;

    const fetched = await petstore.GET('/pets/{petId}', { params: { path: { petId: id } } });
    expect(fetched.data).toEqual(created.data);

    const listed = await petstore.GET('/pets', { params: { query: { status: 'pending', limit: 100 } } });
    expect(listed.data?.every((pet) => pet.status === 'pending')).toBe(true);
    expect(listed.data?.map((pet) => pet.id)).toContain(id);
  });

  it('reads an Error body for a missing animal', async () => {
    const { error, response } = await client().GET('/pets/{petId}', { params: { path: { petId: 987654321 } } });
    expect(response.status).toBe(404);
    expect(error).toEqual({ code: 'PET_NOT_FOUND', message: expect.any(String), status: 404 });
  });
});
