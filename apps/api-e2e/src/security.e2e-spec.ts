import { call, target } from './support/api';
import { AUTH, databaseEnv, type RunningServer, startServer } from './support/server';

const API_SECURITY_HEADERS = {
  'content-security-policy': "default-src 'none';frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'strict-transport-security': 'max-age=31536000; includeSubDomains',
  'cross-origin-resource-policy': 'same-origin',
};

describe('security headers', () => {
  it.each([
    ['a list', 'GET', '/v1/pets', true, 200],
    ['a refused key', 'GET', '/v1/pets', false, 401],
    ['an unknown route', 'GET', '/v2/pets', true, 404],
    ['the readiness probe', 'GET', '/readyz', false, 200],
  ])('are on %s', async (_label, method, path, auth, status) => {
    const response = await call(method, path, { auth, contract: false });
    expect(response.status).toBe(status);
    for (const [name, value] of Object.entries(API_SECURITY_HEADERS)) expect([name, response.headers.get(name)]).toEqual([name, value]);
  });

  it('let Swagger UI load its own scripts and styles, and call this origin only', async () => {
    const response = await call('GET', '/docs', { auth: false, contract: false });
    expect(response.status).toBe(200);
    const policy = (response.headers.get('content-security-policy') ?? '').split(';');
    expect(policy).toEqual(expect.arrayContaining(["default-src 'self'", "script-src 'self'", "connect-src 'self'"]));
    expect(policy).not.toContain('upgrade-insecure-requests');
  });
});

describe('CORS', () => {
  it('is off unless configured: no Access-Control header, and a preflight is not answered', async () => {
    const response = await call('GET', '/v1/pets', { headers: { origin: 'https://app.example.com' }, contract: false });
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
    const preflight = await call('OPTIONS', '/v1/pets', {
      auth: false,
      headers: { origin: 'https://app.example.com', 'access-control-request-method': 'GET' },
      contract: false,
    });
    expect(preflight.status).toBe(401);
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
  });

  describe('with CORS_ORIGINS', () => {
    let server: RunningServer;
    const ORIGIN = 'https://app.example.com';

    beforeAll(async () => {
      server = await startServer({ ...databaseEnv(target), CORS_ORIGINS: `${ORIGIN},http://localhost:5173` });
    });

    afterAll(async () => {
      await server.stop();
    });

    it('answers a preflight from a listed origin before authentication', async () => {
      const response = await fetch(`${server.url}/v1/pets`, {
        method: 'OPTIONS',
        headers: {
          origin: ORIGIN,
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'authorization,content-type',
        },
      });
      expect(response.status).toBe(204);
      expect(response.headers.get('access-control-allow-origin')).toBe(ORIGIN);
      expect(response.headers.get('access-control-allow-headers')).toBe('Authorization, Content-Type, Idempotency-Key, X-Request-Id');
      expect(response.headers.get('access-control-allow-methods')).toMatch(/^GET, ?HEAD, ?POST$/);
      expect(response.headers.get('access-control-allow-credentials')).toBeNull();
    });

    it('answers a preflight without Origin with the Error body', async () => {
      const response = await fetch(`${server.url}/v1/pets`, { method: 'OPTIONS', headers: { 'access-control-request-method': 'POST' } });
      expect(response.status).toBe(400);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      expect(await response.json()).toEqual({ code: 'BAD_REQUEST', message: expect.any(String), status: 400 });
    });

    it('lets a listed origin read the answer and its headers', async () => {
      const response = await fetch(`${server.url}/v1/pets`, { headers: { ...AUTH, origin: ORIGIN } });
      expect(response.status).toBe(200);
      expect(response.headers.get('access-control-allow-origin')).toBe(ORIGIN);
      expect(response.headers.get('access-control-expose-headers')).toContain('RateLimit');
    });

    it('gives an unlisted origin nothing to read', async () => {
      const response = await fetch(`${server.url}/v1/pets`, { headers: { ...AUTH, origin: 'https://evil.example.com' } });
      expect(response.headers.get('access-control-allow-origin')).toBeNull();
    });
  });
});
