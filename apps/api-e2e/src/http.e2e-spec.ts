import { connect } from 'node:net';
import { baseUrl, call, expectError } from './support/api';

/** Sends raw bytes and returns the raw answer: for requests no HTTP client would send. */
async function rawRequest(bytes: string): Promise<string> {
  const { hostname, port } = new URL(baseUrl());
  return new Promise((resolve, reject) => {
    let answer = '';
    const socket = connect(Number(port), hostname, () => socket.end(bytes));
    socket.on('data', (chunk) => (answer += chunk));
    socket.on('close', () => resolve(answer));
    socket.on('error', reject);
  });
}

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

  it('treats a trailing slash as the same route', async () => {
    expect((await call('GET', '/v1/pets/', { contract: false })).status).toBe(200);
  });

  it.each([
    ['a malformed URL', '/v1/pets/%E0%A4%A', 400],
    ['an over-long path parameter', `/v1/pets/${'1'.repeat(150)}`, 414],
  ])('answers %s with an Error body', async (_case, path, status) => {
    // The router rejects these before any operation runs: outside the documented contract.
    expectError(await call('GET', path, { contract: false }), status, 'BAD_REQUEST');
  });

  it('answers 431 with an Error body for oversized headers', async () => {
    const response = await call('GET', '/v1/pets', { headers: { 'x-filler': 'a'.repeat(20_000) }, contract: false });
    expectError(response, 431, 'BAD_REQUEST');
  });

  it('answers 400 with an Error body for a request that is not HTTP', async () => {
    const answer = await rawRequest('GARBAGE\r\n\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(answer).toContain('{"code":"BAD_REQUEST","message":"Malformed HTTP request","status":400}');
  });

  it('answers 400 for deeply nested JSON without falling over', async () => {
    const body = `${'['.repeat(30_000)}${']'.repeat(30_000)}`;
    expectError(await call('POST', '/v1/pets', { body, headers: { 'content-type': 'application/json' } }), 400, 'MALFORMED_JSON');
    expect((await call('GET', '/healthz')).status).toBe(200);
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
