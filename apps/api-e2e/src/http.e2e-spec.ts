import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { resolve } from 'node:path';
import { baseUrl, call, expectError, instanceUrls } from './support/api';

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

/** The status, headers (lower-cased names) and body of a raw HTTP/1.1 answer with a Content-Length. */
function parseAnswer(raw: string): { status: number; headers: Record<string, string>; body: string } {
  const [head, ...rest] = raw.split('\r\n\r\n');
  const [statusLine, ...lines] = head.split('\r\n');
  const headers = Object.fromEntries(
    lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
  );
  return { status: Number(statusLine.split(' ')[1]), headers, body: rest.join('\r\n\r\n') };
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
    ['a malformed URL', '/v1/pets/%E0%A4%A', 400, 'BAD_REQUEST'],
    ['an over-long path parameter', `/v1/pets/${'1'.repeat(150)}`, 414, 'URI_TOO_LONG'],
  ])('answers %s with an Error body', async (_case, path, status, code) => {
    // The router rejects these before any operation runs: outside the documented contract.
    expectError(await call('GET', path, { contract: false }), status, code);
  });

  it('answers 431 with an Error body for oversized headers', async () => {
    const response = await call('GET', '/v1/pets', { headers: { 'x-filler': 'a'.repeat(20_000) }, contract: false });
    expectError(response, 431, 'HEADERS_TOO_LARGE');
  });

  it('answers 400 with an Error body for a request that is not HTTP', async () => {
    const answer = await rawRequest('GARBAGE\r\n\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(answer).toContain('{"code":"BAD_REQUEST","message":"Malformed HTTP request","status":400}');
  });

  it.each([
    ['Expect: 200-ok', 'GET /v1/pets HTTP/1.1\r\nHost: x\r\nExpect: 200-ok\r\n', 417, 'EXPECTATION_FAILED'],
    ['HTTP/1.1 without Host', 'GET /v1/pets HTTP/1.1\r\n', 400, 'BAD_REQUEST'],
    ['a path that climbs out of /docs', 'GET /docs/../../etc/passwd HTTP/1.1\r\nHost: x\r\n', 403, 'FORBIDDEN'],
  ])('answers %s, which Node would answer itself, with the Error body', async (_case, head, status, code) => {
    const answer = parseAnswer(await rawRequest(`${head}Connection: close\r\n\r\n`));
    expect(answer.status).toBe(status);
    expect(answer.headers['content-type']).toMatch(/^application\/json/);
    expect(JSON.parse(answer.body)).toEqual({ code, message: expect.any(String), status });
  });

  it('serves an HTTP/1.0 request without Host', async () => {
    const answer = parseAnswer(await rawRequest(`GET /healthz HTTP/1.0\r\n\r\n`));
    expect(answer.status).toBe(200);
  });

  it('closes the connection after refusing a request whose body it has not read, instead of draining it', async () => {
    // Straight to an instance: a relay that copies bytes (the pooled target's load balancer) may
    // fail writing the upload into the closed socket before it has read the answer, and lose it.
    const { hostname, port } = new URL(instanceUrls()[0]);
    const socket = connect(Number(port), hostname);
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk));
    socket.on('error', () => undefined);
    const closed = new Promise<void>((done) => socket.once('close', () => done()));
    await new Promise((done) => socket.once('connect', done));
    socket.write('POST /v1/pets HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 209715200\r\n\r\n{"name":');
    // Keep uploading, as a client with 200 MiB to send would, until the server hangs up.
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    let sent = 0;
    const started = Date.now();
    while (!socket.destroyed && Date.now() - started < 5000) {
      if (socket.write(chunk)) sent += chunk.length;
      await new Promise((done) => setTimeout(done, 1));
    }
    await closed;
    expect(Date.now() - started).toBeLessThan(5000);
    expect(sent).toBeLessThan(50 * 1024 * 1024);
    expect(parseAnswer(answer).status).toBe(401);
    expect(parseAnswer(answer).headers.connection).toBe('close');
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
    const document = (await call('GET', '/openapi.json', { auth: false })).body as {
      paths: Record<string, Record<string, { operationId: string }>>;
    };
    const operations = Object.values(document.paths).flatMap((path) => Object.values(path).map((operation) => operation.operationId));
    expect(operations).toEqual(expect.arrayContaining(['listPets', 'createPet', 'getPet']));
  });

  it('serves the committed OpenAPI document unchanged (only the /docs page adds a same-origin server)', async () => {
    const committed = JSON.parse(readFileSync(resolve(__dirname, '../../../openapi/petstore.openapi.json'), 'utf8'));
    expect((await call('GET', '/openapi.json', { auth: false })).body).toEqual(committed);
  });
});
