import { call } from '../testing/http';
import { sharedApp, type InProcessApp } from '../testing/in-process-app';

// Security headers, and CORS off by default, on the real application in process
// (CORS configured: own-app/cors.spec.ts, an app of its own).

const API_SECURITY_HEADERS = {
  'content-security-policy': "default-src 'none';frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'strict-transport-security': 'max-age=31536000; includeSubDomains',
  'cross-origin-resource-policy': 'same-origin',
};

let petstore: InProcessApp;
beforeAll(async () => {
  petstore = await sharedApp();
});

describe('security headers', () => {
  it.each([
    ['a list', 'GET', '/v1/pets', true, 200],
    ['a refused key', 'GET', '/v1/pets', false, 401],
    ['an unknown route', 'GET', '/v2/pets', true, 404],
    ['the readiness probe', 'GET', '/readyz', false, 200],
    ['the OpenAPI document', 'GET', '/openapi.json', false, 200],
  ])('are on %s', async (_label, method, path, auth, status) => {
    const response = await call(petstore, method, path, { auth, contract: false });
    expect(response.status).toBe(status);
    for (const [name, value] of Object.entries(API_SECURITY_HEADERS)) expect([name, response.headers.get(name)]).toEqual([name, value]);
  });

  it.each(['/docs', '/docs/swagger-ui-init.js'])(
    'let Swagger UI load its own scripts and styles, and call this origin only (%s)',
    async (path) => {
      const response = await call(petstore, 'GET', path, { auth: false, contract: false });
      expect(response.status).toBe(200);
      const policy = (response.headers.get('content-security-policy') ?? '').split(';');
      expect(policy).toEqual(expect.arrayContaining(["default-src 'self'", "script-src 'self'", "connect-src 'self'"]));
      expect(policy).not.toContain('upgrade-insecure-requests');
    },
  );
});

describe('CORS', () => {
  it('is off unless configured: no Access-Control header, and a preflight is not answered', async () => {
    const response = await call(petstore, 'GET', '/v1/pets', { headers: { origin: 'https://app.example.com' }, contract: false });
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
    const preflight = await call(petstore, 'OPTIONS', '/v1/pets', {
      auth: false,
      headers: { origin: 'https://app.example.com', 'access-control-request-method': 'GET' },
      contract: false,
    });
    expect(preflight.status).toBe(401);
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
  });
});
