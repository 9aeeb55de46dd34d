import { call, expectError } from './support/api';

describe('HTTP behaviour', () => {
  it.each(['/', '/v1', '/v1/animals', '/v2/pets', '/v1/pets/1/owner'])('answers 404 ROUTE_NOT_FOUND as JSON for %s', async (path) => {
    expectError(await call('GET', path), 404, 'ROUTE_NOT_FOUND');
  });

  it.each([
    ['DELETE', '/v1/pets', 'GET, HEAD, POST'],
    ['PUT', '/v1/pets', 'GET, HEAD, POST'],
    ['PATCH', '/v1/pets/1', 'GET, HEAD'],
    ['DELETE', '/v1/pets/1', 'GET, HEAD'],
    ['POST', '/v1/pets/1', 'GET, HEAD'],
  ])('answers 405 with Allow for %s %s', async (method, path, allow) => {
    const response = await call(method, path);
    expectError(response, 405, 'METHOD_NOT_ALLOWED');
    expect(response.headers.get('allow')).toBe(allow);
  });

  it('echoes a request id, or makes one', async () => {
    expect((await call('GET', '/v1/pets', { headers: { 'x-request-id': 'trace-123' } })).headers.get('x-request-id')).toBe('trace-123');
    expect((await call('GET', '/v1/pets')).headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('serves liveness and readiness', async () => {
    expect((await call('GET', '/healthz', { auth: false })).body).toEqual({ status: 'ok' });
    expect((await call('GET', '/readyz', { auth: false })).body).toEqual({ status: 'ok' });
  });

  it('serves the OpenAPI document with the three operations', async () => {
    const document = (await call('GET', '/openapi.json', { auth: false })).body as { paths: Record<string, Record<string, { operationId: string }>> };
    const operations = Object.values(document.paths).flatMap((path) => Object.values(path).map((operation) => operation.operationId));
    expect(operations).toEqual(expect.arrayContaining(['listPets', 'createPet', 'getPet']));
  });
});
