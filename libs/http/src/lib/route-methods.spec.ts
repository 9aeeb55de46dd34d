import type { HttpAdapterHost } from '@nestjs/core';
import Fastify from 'fastify';
import { RouteMethods } from './route-methods';
import { corsOptions } from './security';

/**
 * A bare Fastify with operations (routes whose config says so, as @ApiController's) registered after RouteMethods is made, and
 * a route that is none, then the application's bootstrap, as Nest does.
 */
async function appWith(routes: Record<string, string[]>) {
  const fastify = Fastify();
  const adapterHost = { httpAdapter: { getInstance: () => fastify } } as unknown as HttpAdapterHost;
  const methods = new RouteMethods(adapterHost);
  for (const [url, served] of Object.entries(routes)) {
    fastify.route({ method: served, url, config: { operation: true }, handler: async () => ({ ok: true }) });
  }
  fastify.get('/healthz', async () => ({ ok: true }));
  methods.onApplicationBootstrap();
  await fastify.ready();
  return { fastify, methods };
}

describe('RouteMethods', () => {
  it('answers a method a route does not serve with 405 and the Allow header of that route', async () => {
    const { fastify } = await appWith({ '/v1/things': ['GET', 'POST'], '/v1/things/:id': ['GET', 'PATCH', 'DELETE'] });
    const things = await fastify.inject({ method: 'DELETE', url: '/v1/things' });
    expect([things.statusCode, things.headers['allow']]).toEqual([405, 'GET, HEAD, POST']);
    const thing = await fastify.inject({ method: 'PUT', url: '/v1/things/1' });
    expect([thing.statusCode, thing.headers['allow']]).toEqual([405, 'GET, HEAD, PATCH, DELETE']);
  });

  it("knows every method the API's operations serve, a newly added one included, wherever their paths, and nothing else", async () => {
    const { fastify, methods } = await appWith({ '/v1/things': ['GET', 'POST'], '/v1/things/:id': ['PUT'], '/elsewhere': ['DELETE'] });
    expect(methods.served()).toEqual(['GET', 'HEAD', 'POST', 'PUT', 'DELETE']);
    expect((await fastify.inject({ method: 'GET', url: '/elsewhere' })).statusCode).toBe(405);
    expect((await fastify.inject({ method: 'POST', url: '/healthz' })).statusCode).toBe(404);
  });

  it('is what CORS allows', async () => {
    const { methods } = await appWith({ '/v1/things': ['GET'], '/v1/things/:id': ['DELETE'] });
    type Delegator = (request: unknown, callback: (error: unknown, options: { methods: string[] }) => void) => void;
    const headers = { allowedHeaders: [], exposedHeaders: [] };
    const { delegator } = corsOptions(['https://app.example.com'], () => methods.served(), headers) as { delegator: Delegator };
    const allowed = await new Promise((resolve) => delegator({}, (_error, options) => resolve(options.methods)));
    expect(allowed).toEqual(['GET', 'HEAD', 'DELETE']);
  });
});
