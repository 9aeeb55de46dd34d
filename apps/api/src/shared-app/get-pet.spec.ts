import type { LightMyRequestResponse } from 'fastify';
import { AUTH, sharedApp, type InProcessApp } from '../testing/in-process-app';

// GET /v1/pets/{petId}, deprecated: the pet with exact int64 digits, and the deprecation headers on every answer.

/** What the tests read of an Error body. */
type ErrorBody = { code: string; message: string };

/** RFC 9745's Deprecation: `@` and a Unix time in seconds. */
const deprecatedAt = (header: unknown): Date => {
  const seconds = /^@(-?\d+)$/.exec(String(header));
  if (!seconds) throw new Error(`Deprecation is not an RFC 9745 date: ${String(header)}`);
  return new Date(Number(seconds[1]) * 1000);
};

const expectDeprecationHeaders = (response: LightMyRequestResponse) => {
  // Deprecated already (a future date would announce a deprecation to come), and before the removal.
  const deprecation = deprecatedAt(response.headers['deprecation']);
  expect(deprecation.getTime()).toBeLessThan(Date.now());
  expect(response.headers['sunset']).toBe('Thu, 05 Dec 2030 00:00:00 GMT');
  expect(deprecation.getTime()).toBeLessThan(Date.parse(String(response.headers['sunset'])));
  expect(response.headers['link']).toBe('</v1/pets>; rel="successor-version"');
};

describe('GET /v1/pets/{petId} (deprecated), in process', () => {
  let petstore: InProcessApp;
  beforeAll(async () => {
    petstore = await sharedApp();
  });

  const get = (url: string, headers: Record<string, string> = AUTH) => petstore.fastify.inject({ method: 'GET', url, headers });

  it('returns the pet with its exact int64 fields', async () => {
    const created = await petstore.fastify.inject({
      method: 'POST',
      url: '/v1/pets',
      headers: { ...AUTH, 'content-type': 'application/json' },
      payload: '{"name":"Fido","categoryId":9223372036854775807,"status":"sold"}',
    });
    const id = /^\{"id":(\d+),/.exec(created.body)![1];
    const response = await get(`/v1/pets/${id}`);
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe(`{"id":${id},"name":"Fido","categoryId":9223372036854775807,"status":"sold"}`);
    expectDeprecationHeaders(response);
  });

  it.each(['999999999', '9223372036854775807', '0', '-1', '-9223372036854775808'])(
    'answers 404 PET_NOT_FOUND for the absent id %s',
    async (id) => {
      const response = await get(`/v1/pets/${id}`);
      expect([response.statusCode, response.json<ErrorBody>().code]).toEqual([404, 'PET_NOT_FOUND']);
      expectDeprecationHeaders(response);
    },
  );

  it.each(['abc', '1.5', '1e3', '01', '-0', '+1', '9223372036854775808', '-9223372036854775809', '99999999999999999999', '%20'])(
    'answers 400 for petId %p',
    async (id) => {
      const response = await get(`/v1/pets/${id}`);
      expect([response.statusCode, response.json<ErrorBody>().code]).toEqual([400, 'VALIDATION_FAILED']);
      expect(response.json<ErrorBody>().message).toContain('petId');
      expectDeprecationHeaders(response);
    },
  );

  it('carries the deprecation headers on 401 too', async () => {
    const response = await get('/v1/pets/1', {});
    expect(response.statusCode).toBe(401);
    expectDeprecationHeaders(response);
  });

  it('does not mark the other operations deprecated', async () => {
    expect((await get('/v1/pets')).headers['deprecation']).toBeUndefined();
  });
});
