import { call, createPet, expectError, expectNoPetWithId, type ApiResponse, uniqueName } from './support/api';

const expectDeprecationHeaders = (response: ApiResponse) => {
  expect(response.headers.get('deprecation')).toBe('@1922659200');
  expect(response.headers.get('sunset')).toBe('Thu, 05 Dec 2030 00:00:00 GMT');
  expect(response.headers.get('link')).toBe('</v1/pets>; rel="successor-version"');
};

describe('GET /v1/pets/{petId} (deprecated)', () => {
  it('returns the pet with its exact int64 fields', async () => {
    const name = uniqueName('Fido');
    const id = await createPet({ name, categoryId: 9223372036854775807n, status: 'sold' });
    const response = await call('GET', `/v1/pets/${id}`, { exact: true });
    expect(response.status).toBe(200);
    expect(response.text).toBe(`{"id":${id},"name":"${name}","categoryId":9223372036854775807,"status":"sold"}`);
    expectDeprecationHeaders(response);
  });

  it.each(['999999999', '9223372036854775807', '0', '-1', '-9223372036854775808'])(
    'answers 404 PET_NOT_FOUND for the absent id %s',
    async (id) => {
      await expectNoPetWithId(BigInt(id));
      const response = await call('GET', `/v1/pets/${id}`);
      expectError(response, 404, 'PET_NOT_FOUND');
      expectDeprecationHeaders(response);
    },
  );

  it.each(['abc', '1.5', '1e3', '01', '-0', '+1', '9223372036854775808', '-9223372036854775809', '99999999999999999999', '%20'])(
    'answers 400 for petId %p',
    async (id) => {
      const response = await call('GET', `/v1/pets/${id}`);
      expectError(response, 400, 'VALIDATION_FAILED');
      expect((response.body as { message: string }).message).toContain('petId');
      expectDeprecationHeaders(response);
    },
  );

  it('carries the deprecation headers on 401 too', async () => {
    const response = await call('GET', '/v1/pets/1', { auth: false });
    expectError(response, 401, 'UNAUTHORIZED');
    expectDeprecationHeaders(response);
  });

  it('does not mark the other operations deprecated', async () => {
    expect((await call('GET', '/v1/pets')).headers.get('deprecation')).toBeNull();
  });
});
