import Fastify from 'fastify';
import { registerExactJsonSerializer } from './exact-json-serializer';

describe('registerExactJsonSerializer', () => {
  const thing = { id: 9223372036854775807n, name: 'Rex', tags: [1, 'a', null] };

  it('writes bigint as exact digits on a route without a response schema, instead of answering 500', async () => {
    const fastify = Fastify();
    registerExactJsonSerializer(fastify);
    fastify.get('/thing', async () => thing);
    const response = await fastify.inject({ method: 'GET', url: '/thing' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe('{"id":9223372036854775807,"name":"Rex","tags":[1,"a",null]}');
  });

  it("leaves a route with a response schema to the schema's compiled serializer", async () => {
    const fastify = Fastify();
    registerExactJsonSerializer(fastify);
    const schema = { response: { 200: { type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' } } } } };
    fastify.get('/thing', { schema }, async () => thing);
    // The schema's serializer writes only the fields it names.
    expect((await fastify.inject({ method: 'GET', url: '/thing' })).body).toBe('{"id":9223372036854775807,"name":"Rex"}');
  });
});
