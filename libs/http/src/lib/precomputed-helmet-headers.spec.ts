import fastifyHelmet from '@fastify/helmet';
import Fastify, { type FastifyInstance } from 'fastify';
import type { HelmetOptions } from 'helmet';
import { helmetHeaders } from './precomputed-helmet-headers';
import { API_SECURITY_HEADERS, DOCS_SECURITY_HEADERS } from './security';

/** The headers of an answer from a Fastify route, with `register` run first (the date left out). */
async function headersOfAnAnswer(register: (fastify: FastifyInstance) => Promise<unknown> | void) {
  const fastify = Fastify();
  await register(fastify);
  fastify.get('/', async () => ({ ok: true }));
  const headers = { ...(await fastify.inject({ method: 'GET', url: '/' })).headers };
  await fastify.close();
  delete headers.date;
  return headers;
}

describe('helmetHeaders', () => {
  it('records the headers helmet writes, once, for the options it is given', () => {
    expect(
      helmetHeaders({
        contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"] } },
        frameguard: { action: 'deny' },
      }),
    ).toMatchObject({
      'content-security-policy': "default-src 'none'",
      'x-frame-options': 'DENY',
      'x-content-type-options': 'nosniff',
    });
  });

  it('leaves out what helmet is told to leave out', () => {
    expect(helmetHeaders({ xXssProtection: false, xDnsPrefetchControl: false })).not.toHaveProperty('x-xss-protection');
  });

  it.each<[string, HelmetOptions]>([
    ["the API's", API_SECURITY_HEADERS],
    ["the docs'", DOCS_SECURITY_HEADERS],
    ["helmet's defaults", {}],
  ])('are exactly the headers @fastify/helmet writes on a reply for the same options (%s)', async (_name, options) => {
    const precomputed = await headersOfAnAnswer((fastify) => {
      fastify.addHook('onRequest', (_request, reply, done) => {
        reply.headers(helmetHeaders(options));
        done();
      });
    });
    expect(precomputed).toEqual(await headersOfAnAnswer(async (fastify) => fastify.register(fastifyHelmet, options)));
  });
});
