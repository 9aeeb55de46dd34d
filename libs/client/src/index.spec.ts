import { createPetstoreClient } from './index';

const MAX = 9223372036854775807n;
const PET = `{"id":${MAX},"name":"Rex","categoryId":${MAX},"status":"available"}`;

interface Sent {
  readonly url: string;
  readonly method: string;
  readonly body: string;
}

/** A client whose fetch answers `status` and `body` (JSON) and records what was sent. */
function clientAnswering(status: number, body: string | null) {
  const sent: Sent[] = [];
  const fetch = async (request: Request): Promise<Response> => {
    sent.push({ url: request.url, method: request.method, body: await request.text() });
    return new Response(body, { status, headers: body === null ? {} : { 'content-type': 'application/json' } });
  };
  return { petstore: createPetstoreClient('http://petstore.test/v1', 'key', { fetch }), sent };
}

describe('createPetstoreClient', () => {
  it('sends the API key as a bearer token, given as an option or after the base URL, with the headers it is given', async () => {
    const authorizations: Array<[string | null, string | null]> = [];
    const fetch = async (request: Request): Promise<Response> => {
      authorizations.push([request.headers.get('authorization'), request.headers.get('x-team')]);
      return new Response('[]', { status: 200, headers: { 'content-type': 'application/json' } });
    };
    const headers = { 'x-team': 'shop' };
    await createPetstoreClient({ baseUrl: 'http://petstore.test/v1', apiKey: 'key-1', fetch, headers }).GET('/pets');
    await createPetstoreClient('http://petstore.test/v1', 'key-2', { fetch, headers }).GET('/pets');
    expect(authorizations).toEqual([
      ['Bearer key-1', 'shop'],
      ['Bearer key-2', 'shop'],
    ]);
  });

  it('sends a body with int64 values as exact digits, and reads the created pet exactly', async () => {
    const { petstore, sent } = clientAnswering(201, PET);
    const { data } = await petstore.POST('/pets', { body: { name: 'Rex', categoryId: MAX } });
    expect(sent[0]).toEqual({ url: 'http://petstore.test/v1/pets', method: 'POST', body: `{"name":"Rex","categoryId":${MAX}}` });
    expect(data).toEqual({ id: MAX, name: 'Rex', categoryId: MAX, status: 'available' });
  });

  it('writes int64 path and query parameters as exact digits', async () => {
    const { petstore, sent } = clientAnswering(200, '[]');
    await petstore.GET('/pets/{petId}', { params: { path: { petId: MAX } } });
    await petstore.GET('/pets', { params: { query: { after: MAX, limit: 100 } } });
    expect(sent.map(({ url }) => url)).toEqual([
      `http://petstore.test/v1/pets/${MAX}`,
      `http://petstore.test/v1/pets?after=${MAX}&limit=100`,
    ]);
  });

  it('reads every pet of a list exactly', async () => {
    const { petstore } = clientAnswering(200, `[${PET},{"id":1,"name":"Tom","categoryId":2,"status":"sold"}]`);
    const { data } = await petstore.GET('/pets');
    expect(data).toEqual([
      { id: MAX, name: 'Rex', categoryId: MAX, status: 'available' },
      { id: 1n, name: 'Tom', categoryId: 2n, status: 'sold' },
    ]);
  });

  it('reads an Error body with a numeric status', async () => {
    const { petstore } = clientAnswering(404, '{"code":"PET_NOT_FOUND","message":"No pet with id 1","status":404}');
    const { data, error } = await petstore.GET('/pets/{petId}', { params: { path: { petId: 1n } } });
    expect(data).toBeUndefined();
    expect(error).toEqual({ code: 'PET_NOT_FOUND', message: 'No pet with id 1', status: 404 });
  });

  it('reads the same body through request() and after other middleware', async () => {
    const { petstore } = clientAnswering(200, PET);
    const seen: string[] = [];
    petstore.use({ onResponse: async ({ response }) => void seen.push(await response.clone().text()) });
    const { data } = await petstore.request('get', '/pets/{petId}', { params: { path: { petId: MAX } } });
    expect(data?.id).toBe(MAX);
    expect(seen).toEqual([PET]);
  });

  it('leaves what openapi-fetch does not parse as JSON alone: other parseAs, empty and non-JSON bodies', async () => {
    expect((await clientAnswering(200, PET).petstore.GET('/pets', { parseAs: 'text' })).data).toBe(PET);
    expect((await clientAnswering(204, null).petstore.GET('/pets')).data).toBeUndefined();
    expect((await clientAnswering(502, 'Bad gateway').petstore.GET('/pets')).error).toBe('Bad gateway');
  });
});
