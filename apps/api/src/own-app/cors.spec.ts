import { committedDocument, operationsOf, servedMethods } from '../testing/document';
import { call } from '../testing/http';
import { type InProcessApp, startInProcessApp } from '../testing/in-process-app';

// CORS with CORS_ORIGINS, on the real application in process (off by default: shared-app/security.spec.ts).

const ORIGIN = 'https://app.example.com';

/** Every header some answer of the committed document names, lower case. */
const documentedAnswerHeaders = operationsOf(committedDocument()).flatMap(({ operation }) =>
  Object.values(operation.responses).flatMap((answer) =>
    Object.keys((answer as { headers?: object }).headers ?? {}).map((name) => name.toLowerCase()),
  ),
);

/** What a browser may send: every header parameter of the committed document, the key, a body's type, the request id. */
const sendableHeaders = [
  'authorization',
  'content-type',
  'x-request-id',
  ...operationsOf(committedDocument()).flatMap(({ operation }) =>
    (operation.parameters ?? []).flatMap((parameter) =>
      'in' in parameter && parameter.in === 'header' ? [parameter.name.toLowerCase()] : [],
    ),
  ),
];

describe('CORS with CORS_ORIGINS', () => {
  let petstore: InProcessApp;
  beforeAll(async () => {
    petstore = await startInProcessApp({ CORS_ORIGINS: `${ORIGIN},http://localhost:5173` });
  });
  afterAll(() => petstore?.close());

  it('answers a preflight from a listed origin before authentication', async () => {
    const response = await call(petstore, 'OPTIONS', '/v1/pets', {
      auth: false,
      contract: false,
      headers: {
        origin: ORIGIN,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization,content-type',
      },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe(ORIGIN);
    const allowed = response.headers.get('access-control-allow-headers')?.toLowerCase().split(', ');
    expect(allowed?.sort()).toEqual([...new Set(sendableHeaders)].sort());
    // Every method the API's routes serve (the route table's, which follows the document).
    expect(response.headers.get('access-control-allow-methods')?.split(/, ?/)).toEqual(servedMethods(committedDocument()));
    expect(response.headers.get('access-control-allow-credentials')).toBeNull();
  });

  it('answers a preflight without Origin with the Error body', async () => {
    const response = await call(petstore, 'OPTIONS', '/v1/pets', {
      auth: false,
      contract: false,
      headers: { 'access-control-request-method': 'POST' },
    });
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.body).toEqual({ code: 'BAD_REQUEST', message: expect.any(String), status: 400 });
  });

  it('lets a listed origin read the answer and its headers', async () => {
    const response = await call(petstore, 'GET', '/v1/pets', { headers: { origin: ORIGIN } });
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe(ORIGIN);
    expect(response.headers.get('access-control-expose-headers')).toContain('RateLimit');
  });

  it('lets the client read every header an answer documents, and the request id', async () => {
    const response = await call(petstore, 'GET', '/v1/pets?limit=1', { headers: { origin: ORIGIN } });
    const exposed = String(response.headers.get('access-control-expose-headers')).toLowerCase().split(', ');
    expect(new Set(exposed)).toEqual(new Set([...documentedAnswerHeaders, 'x-request-id']));
  });

  it('gives an unlisted origin nothing to read', async () => {
    const response = await call(petstore, 'GET', '/v1/pets', { headers: { origin: 'https://evil.example.com' } });
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
  });
});
