import { connect } from 'node:net';
import { baseUrl, call, describeOn, expectError } from './support/api';
import { document } from './support/document';

/** Sends raw bytes and returns the raw answer: for requests no HTTP client would send. */
async function rawRequest(bytes: string): Promise<string> {
  const { hostname, port } = new URL(baseUrl());
  return new Promise((resolve, reject) => {
    let answer = '';
    const socket = connect(Number(port), hostname, () => socket.end(bytes));
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
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

/** What the README promises on every answer: security headers (the API's, or the docs pages') and a request id. */
function expectAnswerHeaders(headers: Headers): void {
  expect(headers.get('x-request-id')).toMatch(/^[\w.:-]+$/);
  expect(headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
  expect(headers.get('x-content-type-options')).toBe('nosniff');
}

// What needs a real connection; the rest of the HTTP behaviour is shown in process (apps/api/src/shared-app/http.spec.ts).
describeOn('pglite')('HTTP behaviour on a real connection', () => {
  it('answers 431 with an Error body for oversized headers', async () => {
    const response = await call('GET', '/v1/pets', { headers: { 'x-filler': 'a'.repeat(20_000) }, contract: false });
    expectError(response, 431, 'HEADERS_TOO_LARGE');
  });

  it('answers 400 with an Error body and the headers of every answer for a request that is not HTTP', async () => {
    const answer = parseAnswer(await rawRequest('GARBAGE\r\n\r\n'));
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toEqual({ code: 'BAD_REQUEST', message: 'Malformed HTTP request', status: 400 });
    expectAnswerHeaders(new Headers(answer.headers));
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
    expectAnswerHeaders(new Headers(answer.headers));
    expect(answer.body).not.toContain('200-ok');
  });

  it('serves an HTTP/1.0 request without Host', async () => {
    const answer = parseAnswer(await rawRequest(`GET /healthz HTTP/1.0\r\n\r\n`));
    expect(answer.status).toBe(200);
  });

  // The bundle serves it, the committed file comes from swc's modules: a class the bundle named otherwise would show here.
  it('serves the committed document at /openapi.json, with the server it was reached at first', async () => {
    const response = await fetch(`${baseUrl()}/openapi.json`);
    expect(response.status).toBe(200);
    const { servers, ...served } = (await response.json()) as typeof document;
    const { servers: committedServers, ...committed } = document;
    expect(served).toEqual(committed);
    expect(servers.slice(1)).toEqual(committedServers);
  });
});
