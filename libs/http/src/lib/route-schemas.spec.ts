import type { OpenAPIObject } from '@nestjs/swagger';
import { toErrorResponse } from '@petstore/http-errors';
import Fastify, { type FastifyInstance } from 'fastify';
import { AJV_OPTIONS } from './ajv-options';
import { registerJsonBodyParser } from './json-body.parser';
import { registerRouteSchemas } from './route-schemas';

// How a route finds its operation, and how each kind of input the document describes is checked
// and refused. The service's own operations: apps/api (own-app/query-and-path.spec.ts, shared-app/create-pet.spec.ts).

const THING = {
  type: 'object',
  properties: {
    label: { type: 'string', minLength: 1, maxLength: 3, pattern: '^[a-z]*$', 'x-pattern-means': 'must be lower-case letters' },
    size: { type: 'integer', format: 'int32', maximum: 9 },
    weight: { type: 'integer', format: 'int64' },
    kind: { type: 'string', enum: ['small', 'large'] },
  },
  required: ['label', 'weight'],
};

const DOCUMENT: OpenAPIObject = {
  openapi: '3.0.0',
  info: { title: 'Things', version: '1' },
  servers: [{ url: 'https://things.example.com/v1' }],
  paths: {
    '/things/{thingId}': {
      get: {
        operationId: 'getThing',
        parameters: [
          { name: 'thingId', in: 'path', required: true, schema: { type: 'integer', format: 'int32', minimum: 1 } },
          { name: 'code', in: 'query', schema: { type: 'string', maxLength: 2 } },
        ],
        responses: {
          '200': {
            description: 'The thing',
            content: { 'application/json': { schema: { type: 'object', properties: { id: { type: 'integer' } } } } },
          },
        },
      },
    },
    '/things': {
      post: {
        operationId: 'createThing',
        requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Thing' } } } },
        responses: { '200': { description: 'The thing as checked' } },
      },
    },
  },
  components: { schemas: { Thing: THING } },
};

describe('registerRouteSchemas', () => {
  let fastify: FastifyInstance;
  beforeAll(async () => {
    fastify = Fastify({ ajv: AJV_OPTIONS });
    registerJsonBodyParser(fastify);
    registerRouteSchemas(fastify, DOCUMENT);
    fastify.setErrorHandler((error, _request, reply) => {
      const { status, body } = toErrorResponse(error);
      return reply.status(status).send(body);
    });
    fastify.get('/v1/things/:thingId', (request) => ({ id: (request.params as { thingId: number }).thingId, secret: 'never sent' }));
    fastify.post('/v1/things', (request) => ({ weightPlusOne: String((request.body as { weight: bigint }).weight + 1n) }));
    fastify.post('/v1/things/:thingId', (request) => ({
      id: (request.params as { thingId: string }).thingId,
      weight: 9223372036854775807n,
    }));
    await fastify.ready();
  });
  afterAll(() => fastify.close());

  const post = (payload: string) =>
    fastify.inject({ method: 'POST', url: '/v1/things', headers: { 'content-type': 'application/json' }, payload });
  const refusal = (message: string) => ({ code: 'VALIDATION_FAILED', message, status: 400 });

  it("gives the route at the operation's method and path its schemas: the path checked, the answer serialized", async () => {
    expect((await fastify.inject('/v1/things/7')).json()).toEqual({ id: 7 });
    expect((await fastify.inject('/v1/things/0')).json()).toEqual(refusal('thingId must be an integer from 1 to 2147483647'));
  });

  it("checks the input of a GET's HEAD route as the GET's", async () => {
    expect((await fastify.inject({ method: 'HEAD', url: '/v1/things/0' })).statusCode).toBe(400);
    expect((await fastify.inject({ method: 'HEAD', url: '/v1/things/7' })).statusCode).toBe(200);
  });

  it('leaves the input of a route the document does not describe as it is, and writes its answer by lossless-json, int64 exact', async () => {
    expect((await fastify.inject({ method: 'POST', url: '/v1/things/0' })).body).toBe('{"id":"0","weight":9223372036854775807}');
  });

  it('checks a string parameter by the rules its schema gives, and a path and a query problem together', async () => {
    expect((await fastify.inject('/v1/things/7?code=abc')).json()).toEqual(refusal('code must be at most 2 characters long'));
  });

  it('hands over a body as checked, its int64 exact', async () => {
    const answer = await post('{"label":"ab","weight":9223372036854775806,"size":9}');
    expect([answer.statusCode, answer.json()]).toEqual([200, { weightPlusOne: '9223372036854775807' }]);
  });

  it("lists every problem of a body, in its rules' own words", async () => {
    const answer = await post('{"label":"ABCD","size":10,"kind":null,"colour":"red","shape":1}');
    expect(answer.json<{ message: string }>().message.split('; ').sort()).toEqual([
      'Unknown body properties colour, shape: the body takes only label, size, weight, kind',
      'kind must be one of small, large',
      'label must be 1 to 3 characters long',
      'label must be lower-case letters',
      'size must be an integer from -2147483648 to 9',
      'weight is required',
    ]);
  });

  it.each([
    ['a number', '{"label":"a","weight":1.5}', 'weight must be a 64-bit integer'],
    ['a string', '{"label":"a","weight":"1"}', 'weight must be a 64-bit integer'],
    ['above int64', '{"label":"a","weight":9223372036854775808}', 'weight must be a 64-bit integer'],
    [
      'a lone surrogate',
      '{"label":"\\ud800","weight":1}',
      'label must be valid Unicode (no lone surrogates); label must be lower-case letters',
    ],
    ['a number for a string', '{"label":5,"weight":1}', 'label must be a string'],
    ['null for an optional string', '{"label":"a","weight":1,"kind":null}', 'kind must be one of small, large'],
    ['null', 'null', 'Request body must be a JSON object'],
    ['an array', '[]', 'Request body must be a JSON object'],
  ])('refuses %s where the schema says otherwise', async (_case, payload, message) => {
    expect((await post(payload)).json()).toEqual(refusal(message));
  });

  it.each(['toString', '__proto__', 'constructor'])('refuses the inherited name %s as an unknown property', async (key) => {
    expect((await post(`{"label":"a","weight":1,${JSON.stringify(key)}:1}`)).json()).toEqual(
      refusal(`Unknown body property ${key}: the body takes only label, size, weight, kind`),
    );
  });
});

describe('registerRouteSchemas at start', () => {
  const operation = (method: 'post' | 'get', requestBody?: object) =>
    ({ ...DOCUMENT, paths: { '/things': { [method]: { operationId: 'makeThing', requestBody, responses: {} } } } }) as OpenAPIObject;
  const register = (document: OpenAPIObject) => () => registerRouteSchemas(Fastify({ ajv: AJV_OPTIONS }), document);

  it('stops on a POST without a body in the document (a @Body() typed with an interface), naming the fix', () => {
    expect(register(operation('post'))).toThrow(
      'makeThing (POST /v1/things) declares no request body: type its @Body() with a DTO class whose properties carry @ApiProperty',
    );
  });

  it('stops on a body whose DTO documents no property', () => {
    const empty = { content: { 'application/json': { schema: { type: 'object' } } } };
    expect(register(operation('post', empty))).toThrow(
      "makeThing (POST /v1/things): its request body is no object with properties; give its DTO's properties @ApiProperty",
    );
  });

  it('stops on an input of a kind it cannot check yet, naming where to teach it', () => {
    const numbers = { content: { 'application/json': { schema: { type: 'object', properties: { ratio: { type: 'number' } } } } } };
    expect(register(operation('post', numbers))).toThrow('ratio: number is no input route-schemas.ts checks yet');
  });
});
