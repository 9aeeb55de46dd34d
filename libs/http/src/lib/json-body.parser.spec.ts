import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import { ApiException } from '@petstore/http-errors';
import { decodeUtf8Body, JSON_MAX_DEPTH, parseJsonBody, registerJsonBodyParser } from './json-body.parser';

function parseError(text: string): ApiException {
  try {
    parseJsonBody(text);
  } catch (error) {
    if (error instanceof ApiException) return error;
    throw error;
  }
  throw new Error(`${JSON.stringify(text)} was parsed`);
}

describe('parseJsonBody', () => {
  it.each([
    ['9223372036854775807', 9223372036854775807n],
    ['-9223372036854775808', -9223372036854775808n],
    ['9007199254740993', 2n ** 53n + 1n],
    ['0', 0n],
    ['-7', -7n],
  ])('turns the integer literal %s into the exact bigint', (text, expected) => {
    expect(parseJsonBody(`{"id":${text}}`)).toEqual({ id: expected });
  });

  it('keeps integers exact inside arrays and nested objects', () => {
    expect(parseJsonBody('{"thing":{"ids":[1,9223372036854775807]}}')).toEqual({ thing: { ids: [1n, 9223372036854775807n] } });
  });

  it('keeps a fraction a number', () => {
    expect(parseJsonBody('{"x":1.5}')).toEqual({ x: 1.5 });
  });

  it('turns an exponent form into a number, not a bigint', () => {
    const body = parseJsonBody('{"x":1e2}') as { x: unknown };
    expect(body.x).toBe(100);
  });

  it('parses strings, booleans and null as usual', () => {
    expect(parseJsonBody('{"name":"Rex \\"the dog\\"","ok":true,"none":null}')).toEqual({ name: 'Rex "the dog"', ok: true, none: null });
  });

  it.each(['', '   ', '\n\t '])('refuses the empty body %p as MALFORMED_JSON', (text) => {
    const error = parseError(text);
    expect(error.code).toBe('MALFORMED_JSON');
    expect(error.getStatus()).toBe(400);
    expect(error.message).toBe('Request body is empty; expected a JSON object');
  });

  it.each(['{x', '{"name":"Rex",}', "{'name':'Rex'}", '{"a":1} x', 'undefined', '{"a":NaN}'])('refuses the malformed body %p', (text) => {
    const error = parseError(text);
    expect(error.code).toBe('MALFORMED_JSON');
    expect(error.getStatus()).toBe(400);
    expect(error.message).toMatch(/^Request body is not valid JSON/);
  });

  it.each(['{"name":"Rex","name":"Max"}', '{"a":{"x":1},"a":{"x":2}}'])('refuses the ambiguous duplicate key in %s', (text) => {
    const error = parseError(text);
    expect(error.code).toBe('MALFORMED_JSON');
    expect(error.getStatus()).toBe(400);
  });

  it('accepts a key repeated with the same value, which is not ambiguous', () => {
    expect(parseJsonBody('{"name":"Rex","name":"Rex"}')).toEqual({ name: 'Rex' });
  });

  it('keeps "__proto__" as a plain own property without changing the prototype', () => {
    const body = parseJsonBody('{"__proto__":{"a":1}}') as object;

    expect(Object.getPrototypeOf(body)).toBe(Object.prototype);
    expect(Object.hasOwn(body, '__proto__')).toBe(true);
    expect(Object.getOwnPropertyDescriptor(body, '__proto__')?.value).toEqual({ a: 1n });
    expect((body as { a?: unknown }).a).toBeUndefined();
    expect(({} as { a?: unknown }).a).toBeUndefined();
  });

  it('accepts nesting up to the limit', () => {
    const text = `${'['.repeat(JSON_MAX_DEPTH)}${']'.repeat(JSON_MAX_DEPTH)}`;
    expect(() => parseJsonBody(text)).not.toThrow();
  });

  it.each([
    ['arrays', (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`],
    ['objects in an unknown property', (depth: number) => `{"x":${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}}`],
    ['an unclosed run', (depth: number) => '['.repeat(depth)],
  ])('refuses %s nested past the limit, however deep, without recursing', (_case, nested) => {
    for (const depth of [JSON_MAX_DEPTH + 1, 2_000, 200_000]) {
      const error = parseError(nested(depth));
      expect(error.code).toBe('MALFORMED_JSON');
      expect(error.message).toContain(`deeper than ${JSON_MAX_DEPTH} levels`);
    }
  });

  it('does not count brackets inside strings, escaped quotes included', () => {
    const text = `{"name":"${'[{'.repeat(100)}\\"${'['.repeat(100)}"}`;
    expect(parseJsonBody(text)).toEqual({ name: `${'[{'.repeat(100)}"${'['.repeat(100)}` });
  });
});

describe('decodeUtf8Body', () => {
  it('decodes UTF-8, multi-byte characters included', () => {
    expect(decodeUtf8Body(Buffer.from('{"name":"Ünïcödé 🐈"}'))).toBe('{"name":"Ünïcödé 🐈"}');
  });

  it.each([
    ['a Latin-1 byte', [0x7b, 0xe9, 0x7d]],
    ['a truncated sequence', [0x22, 0xf0, 0x9f, 0x90, 0x22]],
    ['an overlong encoding', [0xc0, 0xaf]],
    ['an encoded surrogate', [0xed, 0xa0, 0x80]],
  ])('refuses %s as MALFORMED_JSON instead of replacing it', (_case, bytes) => {
    expect(() => decodeUtf8Body(Uint8Array.from(bytes))).toThrow('Request body is not valid UTF-8');
  });
});

describe('registerJsonBodyParser', () => {
  let fastify: FastifyInstance;
  const BODY = '{ "name" : "Rex" }';

  beforeAll(async () => {
    fastify = Fastify();
    registerJsonBodyParser(fastify);
    // Answers with what the request kept of its body's bytes: on /signed, kept with an X-Signature.
    const answer = async (request: FastifyRequest) => ({
      rawBody: request.rawBody?.toString('latin1') ?? null,
      name: (request.body as { name: string }).name,
    });
    fastify.post('/signed', { config: { keepRawBodyWith: 'x-signature' } }, answer);
    fastify.post('/plain', answer);
    await fastify.ready();
  });

  afterAll(async () => {
    await fastify.close();
  });

  const post = async (path: string, headers: Record<string, string>) =>
    (
      await fastify.inject({ method: 'POST', url: path, headers: { 'content-type': 'application/json', ...headers }, body: BODY })
    ).json<unknown>();

  it("keeps the bytes of a request with the route's header, exactly as received", async () => {
    expect(await post('/signed', { 'x-signature': 'k' })).toEqual({ rawBody: BODY, name: 'Rex' });
  });

  it('keeps nothing of a request without it', async () => {
    expect(await post('/signed', {})).toEqual({ rawBody: null, name: 'Rex' });
  });

  it('keeps nothing on a route that does not ask, whatever the headers', async () => {
    expect(await post('/plain', { 'x-signature': 'k' })).toEqual({ rawBody: null, name: 'Rex' });
  });
});
