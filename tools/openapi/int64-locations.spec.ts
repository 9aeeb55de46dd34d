import { type Document, int64Locations, isInt64, type Schema } from './int64-locations';

const PET: Schema = {
  type: 'object',
  properties: { id: { type: 'integer', format: 'int64' }, name: { type: 'string' }, age: { type: 'integer', format: 'int32' } },
};
const ERROR: Schema = { type: 'object', properties: { status: { type: 'integer', format: 'int32' } } };

const json = (schema: Schema) => ({ content: { 'application/json': { schema } } });
const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });

describe('isInt64', () => {
  it('knows int64 integers, nullable ones included', () => {
    expect(isInt64({ type: 'integer', format: 'int64' })).toBe(true);
    expect(isInt64({ type: ['integer', 'null'], format: 'int64' })).toBe(true);
    expect(isInt64({ type: 'integer', format: 'int32' })).toBe(false);
    expect(isInt64({ type: 'integer' })).toBe(false);
    expect(isInt64({ type: 'string', format: 'int64' })).toBe(false);
  });
});

describe('int64Locations', () => {
  it('finds the int64 values of the response bodies, through references, and only the schemas they use', () => {
    const document: Document = {
      paths: {
        '/pets': {
          parameters: [],
          get: { responses: { '200': json({ type: 'array', items: ref('Pet') }), '400': json(ERROR) } },
          post: { requestBody: json(ref('NewPet')), responses: { '201': json(ref('Pet')) } },
        },
        '/health': { get: { responses: { '200': json(ERROR) } } },
      },
      components: {
        schemas: {
          NewPet: { type: 'object', properties: { categoryId: { type: 'integer', format: 'int64' } } },
          Error: ERROR,
          Pet: PET,
        },
      },
    };
    expect(int64Locations(document)).toEqual({
      schemas: { Pet: { properties: { id: 'int64' } } },
      responses: {
        'GET /pets': { '200': { items: { $ref: 'Pet' } } },
        'POST /pets': { '201': { $ref: 'Pet' } },
      },
    });
  });

  it('merges allOf, anyOf and oneOf, follows additionalProperties, and keeps cycles as references', () => {
    const document: Document = {
      paths: {
        '/trees': {
          get: {
            responses: {
              '200': json({
                allOf: [ref('Tree'), { properties: { total: { type: 'integer', format: 'int64' } } }],
              }),
              default: json({ type: 'object', additionalProperties: { oneOf: [{ type: 'string' }, ref('Pet')] } }),
            },
          },
        },
      },
      components: {
        schemas: {
          Pet: PET,
          Tree: { type: 'object', properties: { pet: ref('Pet'), children: { type: 'array', items: ref('Tree') } } },
        },
      },
    };
    expect(int64Locations(document)).toEqual({
      schemas: {
        Pet: { properties: { id: 'int64' } },
        Tree: { properties: { pet: { $ref: 'Pet' }, children: { items: { $ref: 'Tree' } } } },
      },
      responses: {
        'GET /trees': {
          '200': { anyOf: [{ $ref: 'Tree' }, { properties: { total: 'int64' } }] },
          default: { additionalProperties: { $ref: 'Pet' } },
        },
      },
    });
  });

  it('lists a response without int64 when a broader key of its operation has some, so that the client does not fall back to it', () => {
    const document: Document = {
      paths: {
        '/pets': {
          get: { responses: { '200': json(ERROR), '404': json(ERROR), '4XX': json(PET), '500': json(ERROR), default: json(ERROR) } },
        },
      },
    };
    expect(int64Locations(document).responses).toEqual({ 'GET /pets': { '404': {}, '4XX': { properties: { id: 'int64' } } } });
  });

  it('reads JSON media types only, and resolves referenced responses', () => {
    const document: Document = {
      paths: {
        '/pets': {
          get: {
            responses: {
              '200': { content: { 'text/plain': { schema: PET }, 'application/problem+json; charset=utf-8': { schema: PET } } },
              '404': { $ref: '#/components/responses/NotFound' },
            },
          },
        },
      },
      components: { responses: { NotFound: json({ type: 'integer', format: 'int64' }) } },
    };
    expect(int64Locations(document).responses).toEqual({ 'GET /pets': { '200': { properties: { id: 'int64' } }, '404': 'int64' } });
  });

  it('refuses what the client could not read exactly', () => {
    const responding = (schema: Schema): Document => ({ paths: { '/x': { get: { responses: { '200': json(schema) } } } } });
    expect(() => int64Locations(responding({ type: 'integer', format: 'int64', enum: [1, 2] }))).toThrow('int64 enum or const');
    expect(() => int64Locations(responding({ $ref: 'other.json#/Pet' }))).toThrow('only references to #/components/schemas');
  });
});
