import Fastify from 'fastify';
import { registerExactJsonSerializer } from './exact-json-serializer';

describe('registerExactJsonSerializer', () => {
  const pet = { id: 9223372036854775807n, name: 'Rex', tags: [1, 'a', null] };

  it('writes bigint as exact digits on a route without a response schema, instead of answering 500', async () => {
    const fastify = Fastify();
    registerExactJsonSerializer(fastify);
    fastify.get('/pet', async () => pet);
    const response = await fastify.inject({ method: 'GET', url: '/pet' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe('{"id":9223372036854775807,"name":"Rex","tags":[1,"a",null]}');
  });

  it("leaves a route with a response schema to the schema's compiled serializer", async () => {
    const fastify = Fastify();
    registerExactJsonSerializer(fastify);
    const schema = { response: { 200: { type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' } } } } };
    fastify.get('/pet', { schema }, async () => pet);
    // The schema's serializer writes only the fields it names.
    expect((await fastify.inject({ method: 'GET', url: '/pet' })).body).toBe('{"id":9223372036854775807,"name":"Rex"}');
  });
});
