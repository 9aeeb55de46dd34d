import { type Int64Locations, parseExactJson, responseShape, stringifyExactJson } from './exact-json';

const MAX = 9223372036854775807n;
const MIN = -9223372036854775808n;

const schemas: Int64Locations['schemas'] = {
  Pet: { properties: { id: 'int64', categoryId: 'int64' } },
  Tree: { properties: { id: 'int64', children: { items: { $ref: 'Tree' } } } },
};

describe('parseExactJson', () => {
  it('reads the integers at int64 locations as exact bigints, over the whole int64 range', () => {
    const text = `[{"id":${MAX},"name":"Rex","categoryId":${MIN},"status":"sold"},{"id":1,"name":"Tom","categoryId":0,"status":"sold"}]`;
    expect(parseExactJson(text, { items: { $ref: 'Pet' } }, schemas)).toEqual([
      { id: MAX, name: 'Rex', categoryId: MIN, status: 'sold' },
      { id: 1n, name: 'Tom', categoryId: 0n, status: 'sold' },
    ]);
  });

  it('leaves every other number a number, as JSON.parse reads it', () => {
    const text = '{"code":"PET_NOT_FOUND","message":"No pet","status":404,"ratio":0.1,"big":9223372036854775807,"tiny":1e-400}';
    const parsed = parseExactJson(text, undefined, schemas);
    expect(parsed).toEqual(JSON.parse(text));
    expect(typeof (parsed as { status: unknown }).status).toBe('number');
  });

  it('reads numbers outside the int64 locations of a shape as numbers', () => {
    const parsed = parseExactJson('{"id":7,"weight":7,"tags":[7]}', { $ref: 'Pet' }, schemas);
    expect(parsed).toEqual({ id: 7n, weight: 7, tags: [7] });
  });

  it('follows references through recursive schemas', () => {
    const text = '{"id":1,"children":[{"id":2,"children":[{"id":9223372036854775807,"children":[]}]}]}';
    expect(parseExactJson(text, { $ref: 'Tree' }, schemas)).toEqual({
      id: 1n,
      children: [{ id: 2n, children: [{ id: MAX, children: [] }] }],
    });
  });

  it('applies every alternative of anyOf, and additionalProperties to the properties it does not name', () => {
    const shape = { anyOf: [{ $ref: 'Pet' }, { properties: { owner: 'int64' as const }, additionalProperties: 'int64' as const }] };
    expect(parseExactJson('{"id":1,"owner":2,"extra":3}', shape, schemas)).toEqual({ id: 1n, owner: 2n, extra: 3n });
  });

  it('takes no shape from inherited names and keeps a "__proto__" key an own property', () => {
    const text = '{"constructor":1,"toString":2,"__proto__":{"id":3}}';
    const parsed = parseExactJson(text, { properties: {} }, schemas) as { constructor: unknown; toString: unknown };
    expect(parsed.constructor).toBe(1);
    expect(parsed.toString).toBe(2);
    expect(Object.getPrototypeOf(parsed)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(parsed, '__proto__')?.value).toEqual({ id: 3 });
  });

  it('leaves a fraction or an exponent at an int64 location as JSON.parse reads it', () => {
    expect(parseExactJson('{"id":1.5,"categoryId":1e3}', { $ref: 'Pet' }, schemas)).toEqual({ id: 1.5, categoryId: 1000 });
  });

  it('keeps the last value of a repeated key, as JSON.parse does', () => {
    expect(parseExactJson('{"id":1,"id":2}', { $ref: 'Pet' }, schemas)).toEqual({ id: 2n });
  });

  it('throws a SyntaxError on malformed JSON', () => {
    expect(() => parseExactJson('{"id":', undefined, schemas)).toThrow(SyntaxError);
  });

  it('refuses a reference to a schema the table does not have', () => {
    expect(() => parseExactJson('{}', { $ref: 'Missing' }, schemas)).toThrow('unknown schema Missing');
  });
});

describe('stringifyExactJson', () => {
  it('writes bigints as their exact digits', () => {
    expect(stringifyExactJson({ name: 'Rex', categoryId: MAX, ids: [MIN, 0n] })).toBe(
      '{"name":"Rex","categoryId":9223372036854775807,"ids":[-9223372036854775808,0]}',
    );
  });

  it('writes everything else as JSON.stringify does', () => {
    const value = { name: 'Rex\n"', status: undefined, n: 1.5, nan: NaN, list: [undefined, null, true], date: new Date(0), nested: {} };
    expect(stringifyExactJson(value)).toBe(JSON.stringify(value));
  });
});

describe('responseShape', () => {
  const locations: Int64Locations = {
    schemas,
    responses: { 'GET /pets/{petId}': { '200': { $ref: 'Pet' }, '404': {}, '4XX': { $ref: 'Pet' }, default: 'int64' } },
  };

  it('finds the shape of the status, else of its class, else the default', () => {
    expect(responseShape(locations, 'GET /pets/{petId}', 200)).toEqual({ $ref: 'Pet' });
    expect(responseShape(locations, 'GET /pets/{petId}', 404)).toEqual({});
    expect(responseShape(locations, 'GET /pets/{petId}', 400)).toEqual({ $ref: 'Pet' });
    expect(responseShape(locations, 'GET /pets/{petId}', 500)).toBe('int64');
  });

  it('has no shape for an operation without int64 in its responses', () => {
    expect(responseShape(locations, 'GET /pets', 200)).toBeUndefined();
    expect(responseShape(locations, 'constructor', 200)).toBeUndefined();
  });
});
