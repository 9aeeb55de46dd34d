import Fastify from 'fastify';
import { registerExactJsonSerializer } from './exact-json-serializer';

describe('registerExactJsonSerializer', () => {
  it('writes bigint as exact digits on a route without a response schema, instead of answering 500', async () => {
    const fastify = Fastify();
    registerExactJsonSerializer(fastify);
    fastify.get('/pet', async () => ({ id: 9223372036854775807n, name: 'Rex', tags: [1, 'a', null] }));
    const response = await fastify.inject({ method: 'GET', url: '/pet' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe('{"id":9223372036854775807,"name":"Rex","tags":[1,"a",null]}');
  });
});
