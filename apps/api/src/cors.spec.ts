import { committedDocument, operationsOf } from './testing/document';
import { AUTH, type InProcessApp, startInProcessApp } from './testing/in-process-app';

// CORS of the real application: what a browser client of a listed origin may send and read is what
// the document says of the operations, and no list kept by hand. Off by default: security.e2e-spec.ts.

const ORIGIN = 'https://app.example.com';

/** Every header some answer of the committed document names, lower case. */
const documentedAnswerHeaders = operationsOf(committedDocument()).flatMap(({ operation }) =>
  Object.values(operation.responses).flatMap((answer) => Object.keys((answer as { headers?: object }).headers ?? {})),
);

describe('CORS, in process', () => {
  let petstore: InProcessApp;
  beforeAll(async () => {
    petstore = await startInProcessApp({ CORS_ORIGINS: ORIGIN });
  });
  afterAll(() => petstore.close());

  it('answers a preflight with the methods the routes serve and the headers the operations take', async () => {
    const response = await petstore.fastify.inject({
      method: 'OPTIONS',
      url: '/v1/pets',
      headers: {
        origin: ORIGIN,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization,idempotency-key',
      },
    });
    expect(response.statusCode).toBe(204);
    expect(response.headers['access-control-allow-origin']).toBe(ORIGIN);
    expect(response.headers['access-control-allow-methods']).toBe('GET, HEAD, POST');
    expect(response.headers['access-control-allow-headers']).toBe('Authorization, Content-Type, Idempotency-Key, X-Request-Id');
  });

  it('lets the client read every header an answer documents, and the request id', async () => {
    const response = await petstore.fastify.inject({ method: 'GET', url: '/v1/pets?limit=1', headers: { ...AUTH, origin: ORIGIN } });
    expect(response.statusCode).toBe(200);
    const exposed = String(response.headers['access-control-expose-headers']).toLowerCase().split(', ');
    expect(new Set(exposed)).toEqual(new Set([...documentedAnswerHeaders.map((name) => name.toLowerCase()), 'x-request-id']));
    expect(exposed).toEqual(expect.arrayContaining(['deprecation', 'idempotent-replayed', 'ratelimit', 'retry-after', 'location']));
  });
});
