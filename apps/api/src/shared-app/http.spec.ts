import { basePathOf, committedDocument, ROUTE_METHODS, servedMethods } from '../testing/document';
import { AUTH, sharedApp, type InProcessApp } from '../testing/in-process-app';

// HTTP behaviour of the real application that needs no socket of its own: routes, methods, ids,
// probes, the served document. What needs a real connection (431, bytes that are not HTTP,
// HTTP/1.0) stays in apps/api-e2e/src/http.e2e-spec.ts; a body left unread, in refused-uploads.e2e-spec.ts.

const document = committedDocument();

/** Each documented path (with its example ids), the methods the document gives it, HEAD with GET. */
const documentedPaths = Object.keys(document.paths).map((path) => ({
  url: `${basePathOf(document)}${path.replace(/\{[^}]+\}/g, '1')}`,
  served: servedMethods(document, path),
}));
const otherMethods = documentedPaths.flatMap(({ url, served }) =>
  ROUTE_METHODS.filter((method) => !served.includes(method)).map((method) => [method, url, served.join(', ')] as const),
);

describe('HTTP behaviour, in process', () => {
  let petstore: InProcessApp;
  beforeAll(async () => {
    petstore = await sharedApp();
  });

  const inject = (method: string, url: string, headers: Record<string, string> = AUTH) =>
    petstore.fastify.inject({ method: method as 'GET', url, headers });
  const errorOf = (response: { statusCode: number; json(): unknown }) => [response.statusCode, response.json()];

  it.each(['/v1', '/index.html', '/v1/animals', '/v2/pets', '/v1/pets/1/owner'])(
    'answers 404 ROUTE_NOT_FOUND as JSON for %s',
    async (path) => {
      expect(errorOf(await inject('GET', path))).toEqual([404, { code: 'ROUTE_NOT_FOUND', message: expect.any(String), status: 404 }]);
    },
  );

  it.each(otherMethods)('answers 405 with Allow for %s %s', async (method, url, allow) => {
    const response = await inject(method, url);
    expect(errorOf(response)).toEqual([405, { code: 'METHOD_NOT_ALLOWED', message: expect.any(String), status: 405 }]);
    expect(response.headers['allow']).toBe(allow);
  });

  it('treats a trailing slash as the same route', async () => {
    expect((await inject('GET', '/v1/pets/')).statusCode).toBe(200);
  });

  it('answers a URL the router cannot decode as every other answer: security headers, a request id, the Error body, no echo', async () => {
    const response = await inject('GET', '/v1/pets/%E0%A4%A');
    expect(errorOf(response)).toEqual([400, { code: 'BAD_REQUEST', message: expect.any(String), status: 400 }]);
    expect(response.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(response.headers['content-security-policy']).toContain("default-src 'none'");
    expect(response.body).not.toContain('%E0');
  });

  it('validates an over-long path parameter like any other, after authentication', async () => {
    const petId = '1'.repeat(150);
    expect((await inject('GET', `/v1/pets/${petId}`, {})).statusCode).toBe(401);
    const response = await inject('GET', `/v1/pets/${petId}`);
    expect(errorOf(response)).toEqual([400, { code: 'VALIDATION_FAILED', message: expect.any(String), status: 400 }]);
    expect(response.body).not.toContain(petId);
  });

  it('answers 400 for deeply nested JSON without falling over', async () => {
    const response = await petstore.fastify.inject({
      method: 'POST',
      url: '/v1/pets',
      headers: { ...AUTH, 'content-type': 'application/json' },
      payload: `${'['.repeat(30_000)}${']'.repeat(30_000)}`,
    });
    expect(errorOf(response)).toEqual([400, { code: 'MALFORMED_JSON', message: expect.any(String), status: 400 }]);
    expect((await inject('GET', '/healthz', {})).statusCode).toBe(200);
  });

  it('echoes a request id, or makes one', async () => {
    expect((await inject('GET', '/v1/pets', { ...AUTH, 'x-request-id': 'trace-123' })).headers['x-request-id']).toBe('trace-123');
    expect((await inject('GET', '/v1/pets')).headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('serves liveness and readiness', async () => {
    expect((await inject('GET', '/healthz', {})).json()).toEqual({ status: 'ok' });
    expect((await inject('GET', '/readyz', {})).json()).toEqual({ status: 'ok' });
  });

  it('serves the committed OpenAPI document with the instance itself first among its servers, as a URL relative to the document', async () => {
    const served = (await inject('GET', '/openapi.json', {})).json<typeof document>();
    const [first, ...committedServers] = served.servers ?? [];
    expect({ ...served, servers: committedServers }).toEqual(document);
    // A relative server URL is resolved against the URL the document was fetched from (OpenAPI 3.0, Server Object).
    const fetchedFrom = 'http://replica-3.internal:3001/openapi.json';
    expect(new URL(first.url, fetchedFrom).href).toBe(`http://replica-3.internal:3001${basePathOf(document)}`);
    expect((await inject('GET', '/openapi.yaml', {})).body).toContain(`servers:\n  - url: ${first.url}\n`);
    // Every other server is a public environment: none names a port of a developer's machine.
    expect(committedServers.map((server) => new URL(server.url).protocol)).toEqual(committedServers.map(() => 'https:'));
  });

  it('leads a browser that opens the service itself to its documentation', async () => {
    const response = await inject('GET', '/', {});
    expect([response.statusCode, response.headers.location]).toEqual([302, '/docs']);
  });
});
