import { type ApiResponse, call, expectError, petsAfter } from '../testing/http';
import { sharedApp, type InProcessApp } from '../testing/in-process-app';

// POST /v1/pets on the real application, in process: what it stores, and every way a body is refused.

let petstore: InProcessApp;
beforeAll(async () => {
  petstore = await sharedApp();
});

const create = (json: unknown, headers: Record<string, string> = {}) => call(petstore, 'POST', '/v1/pets', { json, headers });

const expectInvalid = (response: ApiResponse, field: string) => {
  expectError(response, 400, 'VALIDATION_FAILED');
  expect((response.body as { message: string }).message).toContain(field);
};

describe('POST /v1/pets', () => {
  it('answers 201 with the pet, its assigned id and its Location', async () => {
    const response = await create({ name: 'Rex', categoryId: 7, status: 'pending' });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({ id: expect.any(Number), name: 'Rex', categoryId: 7, status: 'pending' });
    const id = (response.body as { id: number }).id;
    expect(id).toBeGreaterThan(0);
    expect(response.headers.get('location')).toBe(`/v1/pets/${id}`);
    const fetched = await call(petstore, 'GET', `/v1/pets/${id}`);
    expect(fetched.body).toEqual(response.body);
  });

  it('assigns a new id to every pet', async () => {
    const first = await create({ name: 'A', categoryId: 1 });
    const second = await create({ name: 'A', categoryId: 1 });
    expect([first.status, second.status]).toEqual([201, 201]);
    expect((second.body as { id: number }).id).not.toBe((first.body as { id: number }).id);
  });

  it('makes a pet available when no status is given', async () => {
    const response = await create({ name: 'Rex', categoryId: 1 });
    expect((response.body as { status: string }).status).toBe('available');
  });

  it.each(['available', 'pending', 'sold'])('keeps status %s', async (status) => {
    expect(((await create({ name: 'Rex', categoryId: 1, status })).body as { status: string }).status).toBe(status);
  });

  it.each(['9223372036854775807', '-9223372036854775808', '9007199254740993', '0'])(
    'keeps categoryId %s digit for digit',
    async (categoryId) => {
      const response = await create(`{"name":"Big","categoryId":${categoryId}}`);
      expect(response.status).toBe(201);
      expect(response.text).toContain(`"categoryId":${categoryId}`);
      const id = /"id":(\d+)/.exec(response.text)![1];
      expect((await call(petstore, 'GET', `/v1/pets/${id}`)).text).toContain(`"categoryId":${categoryId}`);
    },
  );

  it.each([
    ['above int64', '9223372036854775808'],
    ['below int64', '-9223372036854775809'],
    ['a fraction', '1.5'],
    ['an exponent', '1e2'],
    ['a string', '"1"'],
    ['a boolean', 'true'],
    ['null', 'null'],
    ['an object', '{}'],
  ])('refuses a categoryId that is %s', async (_case, categoryId) => {
    expectInvalid(await create(`{"name":"Rex","categoryId":${categoryId}}`), 'categoryId');
  });

  it.each([
    ['missing', { categoryId: 1 }],
    ['empty', { name: '', categoryId: 1 }],
    ['too long', { name: 'x'.repeat(256), categoryId: 1 }],
    ['a number', { name: 5, categoryId: 1 }],
    ['null', { name: null, categoryId: 1 }],
    ['with a NUL character', { name: 'Re\u0000x', categoryId: 1 }],
    ['with a newline', { name: 'Re\nx', categoryId: 1 }],
    ['with an escape character', { name: 'Re\u001bx', categoryId: 1 }],
  ])('refuses a name that is %s', async (_case, body) => {
    expectInvalid(await create(body), 'name');
  });

  it('refuses a name with a lone surrogate', async () => {
    expectInvalid(await create('{"name":"\\ud800","categoryId":1}'), 'name');
  });

  it.each([
    ['255 characters', 'x'.repeat(255)],
    ['255 emoji (510 UTF-16 units)', '🐶'.repeat(255)],
    ['unicode', 'Ünïcödé 名前 🐈'],
    ['quotes and backslashes', `O'Brien "the \\ dog"`],
    ['SQL-looking text', "Robert'); DROP TABLE pets;--"],
    ['HTML', '<script>alert(1)</script>'],
    ['only spaces', '   '],
  ])('stores a name with %s verbatim', async (_case, name) => {
    const response = await create({ name, categoryId: 1 });
    expect(response.status).toBe(201);
    const id = (response.body as { id: number }).id;
    expect(((await call(petstore, 'GET', `/v1/pets/${id}`)).body as { name: string }).name).toBe(name);
  });

  it.each([null, 'unknown', 'Available', 1])('refuses status %p', async (status) => {
    expectInvalid(await create({ name: 'Rex', categoryId: 1, status }), 'status');
  });

  it.each(['id', 'owner', '__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf'])(
    'refuses the unknown property %s by name',
    async (field) => {
      expectInvalid(await create(`{"name":"Rex","categoryId":1,${JSON.stringify(field)}:5}`), field);
    },
  );

  it('lists every problem of the body', async () => {
    const response = await create({ name: '', categoryId: 'x', status: 'gone' });
    expectError(response, 400, 'VALIDATION_FAILED');
    const message = (response.body as { message: string }).message;
    for (const field of ['name', 'categoryId', 'status']) expect(message).toContain(field);
  });

  it.each([
    ['an array', '[{"name":"Rex","categoryId":1}]'],
    ['a string', '"Rex"'],
    ['a number', '5'],
    ['null', 'null'],
  ])('refuses a body that is %s', async (_case, body) => {
    expectError(await create(body), 400, 'VALIDATION_FAILED');
  });

  it.each([
    ['empty', ''],
    ['truncated', '{"name":"Rex",'],
    ['single-quoted', "{'name':'Rex'}"],
    ['with a trailing comma', '{"name":"Rex","categoryId":1,}'],
    ['with duplicate keys', '{"name":"Rex","name":"Max","categoryId":1}'],
  ])('answers 400 MALFORMED_JSON for a body that is %s', async (_case, body) => {
    expectError(await call(petstore, 'POST', '/v1/pets', { body, headers: { 'content-type': 'application/json' } }), 400, 'MALFORMED_JSON');
  });

  it.each([
    ['an unknown property', (nested: string) => `{"name":"Rex","categoryId":1,"x":${nested}}`],
    ['the name', (nested: string) => `{"name":${nested},"categoryId":1}`],
    ['the categoryId', (nested: string) => `{"name":"Rex","categoryId":${nested}}`],
  ])('answers 400 for a body nested thousands deep in %s', async (_case, body) => {
    for (const depth of [2_000, 10_000]) {
      const nested = `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
      expectError(
        await call(petstore, 'POST', '/v1/pets', { body: body(nested), headers: { 'content-type': 'application/json' } }),
        400,
        'MALFORMED_JSON',
      );
    }
  });

  it.each([
    ['a Latin-1 é', [0xe9]],
    ['a truncated UTF-8 sequence', [0xf0, 0x9f, 0x90]],
    ['an overlong slash', [0xc0, 0xaf]],
  ])('answers 400 for a name holding bytes that are not UTF-8 (%s), instead of storing U+FFFD', async (_case, bytes) => {
    const body = Buffer.concat([Buffer.from('{"name":"Re'), Buffer.from(bytes), Buffer.from('x","categoryId":1}')]);
    const response = await call(petstore, 'POST', '/v1/pets', { body, headers: { 'content-type': 'application/json' } });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ code: 'MALFORMED_JSON', message: 'Request body is not valid UTF-8', status: 400 });
  });

  it.each(['iso-8859-1', 'latin1', 'utf-16', '"windows-1252"', 'x'])('answers 400 UNSUPPORTED_CHARSET for charset=%s', async (charset) => {
    const response = await call(petstore, 'POST', '/v1/pets', {
      body: '{"name":"Rex","categoryId":1}',
      headers: { 'content-type': `application/json; charset=${charset}` },
    });
    expectError(response, 400, 'UNSUPPORTED_CHARSET');
  });

  it('answers 400 when the body is missing', async () => {
    const response = await call(petstore, 'POST', '/v1/pets');
    expectError(response, 400, 'VALIDATION_FAILED');
    expect((response.body as { message: string }).message).toBe('Request body must be a JSON object');
  });

  it.each(['text/plain', 'application/x-www-form-urlencoded', 'application/xml', 'multipart/form-data; boundary=x'])(
    'answers 415 for Content-Type %s',
    async (contentType) => {
      expectError(
        await call(petstore, 'POST', '/v1/pets', { body: '{"name":"Rex","categoryId":1}', headers: { 'content-type': contentType } }),
        415,
        'UNSUPPORTED_MEDIA_TYPE',
      );
    },
  );

  it.each(['utf-8', 'UTF-8', 'utf8', '"utf-8"'])('accepts application/json with charset=%s', async (charset) => {
    const response = await create({ name: 'Rex', categoryId: 1 }, { 'content-type': `application/json; charset=${charset}` });
    expect(response.status).toBe(201);
  });

  it('answers 413 for a body over 64 KiB, naming the limit', async () => {
    const response = await create({ name: 'x'.repeat(70_000), categoryId: 1 });
    expectError(response, 413, 'PAYLOAD_TOO_LARGE');
    const limit = /^Request body exceeds the limit of (\d+) bytes$/.exec((response.body as { message: string }).message)?.[1];
    expect(Number(limit)).toBeLessThan(70_000);
  });

  it('answers 413 for a large body that lies about its length', async () => {
    const response = await call(petstore, 'POST', '/v1/pets', {
      body: '{}',
      headers: { 'content-type': 'application/json', 'content-length': String(10_000_000) },
    });
    expect(response.status).toBe(413);
  });

  it('does not store a pet when the body is refused', async () => {
    // A pet first: a refused pet, were it stored, would come after it (ids are given in increasing order).
    const before = BigInt(/"id":(\d+)/.exec((await create({ name: 'Before', categoryId: 1 })).text)![1]);
    const name = 'Ghost';
    expectInvalid(await create({ name, categoryId: 1, status: 'sold', id: 1 }), 'id');
    expect((await petsAfter(petstore, before)).filter((pet) => pet.name === name)).toEqual([]);
  });
});
