import type { OpenAPIObject } from '@nestjs/swagger';
import Fastify, { type FastifyInstance } from 'fastify';
import { AJV_OPTIONS } from './ajv-options';
import { registerRouteSchemas } from './route-schemas';

// What ajv checks and the serializer writes, from the document, is shown on the real application
// (apps/api, query-and-path.spec.ts); here, how a route finds its operation: by method and path.

const DOCUMENT: OpenAPIObject = {
  openapi: '3.0.0',
  info: { title: 'Things', version: '1' },
  servers: [{ url: 'https://things.example.com/v1' }],
  paths: {
    '/things/{thingId}': {
      get: {
        operationId: 'getThing',
        parameters: [{ name: 'thingId', in: 'path', required: true, schema: { type: 'integer', format: 'int32', minimum: 1 } }],
        responses: {
          '200': {
            description: 'The thing',
            content: { 'application/json': { schema: { type: 'object', properties: { id: { type: 'integer' } } } } },
          },
        },
      },
    },
  },
};

describe('registerRouteSchemas', () => {
  let fastify: FastifyInstance;
  beforeAll(async () => {
    fastify = Fastify({ ajv: AJV_OPTIONS });
    registerRouteSchemas(fastify, DOCUMENT);
    fastify.get('/v1/things/:thingId', (request) => ({ id: (request.params as { thingId: number }).thingId, secret: 'never sent' }));
    fastify.post('/v1/things/:thingId', (request) => ({ id: (request.params as { thingId: string }).thingId }));
    await fastify.ready();
  });
  afterAll(() => fastify.close());

  it("gives the route at the operation's method and path its schemas: the path checked, the answer serialized", async () => {
    expect((await fastify.inject('/v1/things/7')).json()).toEqual({ id: 7 });
    expect((await fastify.inject('/v1/things/0')).statusCode).toBe(400);
  });

  it("checks the input of a GET's HEAD route as the GET's", async () => {
    expect((await fastify.inject({ method: 'HEAD', url: '/v1/things/0' })).statusCode).toBe(400);
    expect((await fastify.inject({ method: 'HEAD', url: '/v1/things/7' })).statusCode).toBe(200);
  });

  it('leaves a route the document does not describe as it is', async () => {
    expect((await fastify.inject({ method: 'POST', url: '/v1/things/0' })).json()).toEqual({ id: '0' });
  });
});
