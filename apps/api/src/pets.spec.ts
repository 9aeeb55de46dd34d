import { AUTH, type InProcessApp, startInProcessApp } from './testing/in-process-app';

// The pets routes on the real application, in process: headers, int64 digits, pages.

describe('pets, in process', () => {
  let petstore: InProcessApp;
  beforeAll(async () => {
    petstore = await startInProcessApp();
  });
  afterAll(() => petstore?.close());

  const create = (payload: string | object) =>
    petstore.fastify.inject({ method: 'POST', url: '/v1/pets', headers: { ...AUTH, 'content-type': 'application/json' }, payload });
  const get = (url: string) => petstore.fastify.inject({ method: 'GET', url, headers: AUTH });

  it('answers a create with 201, the pet with exact int64 digits, and its Location', async () => {
    const response = await create('{"name":"Rex","categoryId":9223372036854775807}');
    expect(response.statusCode).toBe(201);
    const id = /^\{"id":(\d+),/.exec(response.body)?.[1];
    expect(response.body).toBe(`{"id":${id},"name":"Rex","categoryId":9223372036854775807,"status":"available"}`);
    expect(response.headers['location']).toBe(`/v1/pets/${id}`);
  });

  it('links a full page to the next one, keeping the filter, and a short page to nothing', async () => {
    const ids: string[] = [];
    for (const name of ['A', 'B', 'C']) ids.push(String((await create({ name, categoryId: 1, status: 'pending' })).json().id));
    const after = BigInt(ids[0]) - 1n;
    const full = await get(`/v1/pets?limit=2&status=pending&after=${after}`);
    expect(full.headers['link']).toBe(`</v1/pets?limit=2&status=pending&after=${ids[1]}>; rel="next"`);
    const last = await get(`/v1/pets?limit=2&status=pending&after=${ids[1]}`);
    expect(last.json()).toEqual([{ id: Number(ids[2]), name: 'C', categoryId: 1, status: 'pending' }]);
    expect(last.headers['link']).toBeUndefined();
  });

  it('answers an absent pet with 404 PET_NOT_FOUND and the deprecation headers', async () => {
    const response = await get('/v1/pets/-5');
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ code: 'PET_NOT_FOUND', message: 'No pet with id -5', status: 404 });
    expect(response.headers['sunset']).toBe('Thu, 05 Dec 2030 00:00:00 GMT');
  });
});
