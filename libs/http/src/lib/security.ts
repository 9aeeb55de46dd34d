import fastifyHelmet, { type FastifyHelmetOptions } from '@fastify/helmet';
import type { FastifyCorsOptions } from '@fastify/cors';
import type { FastifyInstance } from 'fastify';
import type { HelmetOptions } from 'helmet';
import type { CorsHeaders } from './cors-headers';
import { helmetHeaders } from './precomputed-helmet-headers';

/**
 * A JSON API's answers (OWASP REST Security Cheat Sheet): nothing in them may load, frame, be
 * framed or be sniffed, nor leave by plain http; they go to their own origin only. Helmet's
 * headers for HTML pages (DNS prefetch, IE8 downloads, Flash policies, the retired XSS filter,
 * origin-agent clustering, opener isolation) say nothing about JSON and are left out.
 */
export const API_SECURITY_HEADERS: HelmetOptions = {
  contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } },
  frameguard: { action: 'deny' },
  referrerPolicy: { policy: 'no-referrer' },
  crossOriginOpenerPolicy: false,
  crossOriginEmbedderPolicy: false,
  originAgentCluster: false,
  xDnsPrefetchControl: false,
  xDownloadOptions: false,
  xPermittedCrossDomainPolicies: false,
  xXssProtection: false,
};

/**
 * Swagger UI: helmet's defaults for HTML, which let it load its own scripts, styles (inline ones
 * too) and data: images; no framing; no upgrade to https, which would break it on a developer's
 * http://localhost. Try it out may call this origin only (the page offers it first as "This
 * server"): stated as connect-src, so that no later change to default-src opens other origins.
 */
const DOCS_SECURITY_HEADERS: FastifyHelmetOptions = {
  contentSecurityPolicy: {
    useDefaults: true,
    directives: { connectSrc: ["'self'"], frameAncestors: ["'none'"], upgradeInsecureRequests: null },
  },
};

/**
 * The API's security headers, worked out once: every answer outside the docs carries them, also
 * those no hook runs for (protocol-errors.ts). The bench's parity baseline sends them too. With
 * them `Cache-Control: no-store` (the same cheat sheet): answers made for a key are kept by no
 * cache, unless a conditional GET says otherwise (conditional-get.ts).
 */
export const API_HEADERS: Readonly<Record<string, string>> = { ...helmetHeaders(API_SECURITY_HEADERS), 'cache-control': 'no-store' };

/**
 * Security headers on every answer. The docs pages get @fastify/helmet's per-route headers; API
 * answers the same library's headers worked out once (precomputed-helmet-headers.ts): @fastify/helmet
 * would run helmet again for every request.
 */
export async function registerSecurityHeaders(fastify: FastifyInstance, docsPrefix: string): Promise<void> {
  // Runs before @fastify/helmet's own onRoute hook, which reads the route's `helmet` option.
  fastify.addHook('onRoute', (route) => {
    if (route.url.startsWith(docsPrefix)) route.helmet = DOCS_SECURITY_HEADERS;
  });
  await fastify.register(fastifyHelmet, { global: false });
  fastify.addHook('onRequest', (request, reply, done) => {
    if (!request.routeOptions.url?.startsWith(docsPrefix)) reply.headers(API_HEADERS);
    done();
  });
}

/**
 * CORS for browser clients of the listed origins ('*' for any), allowing the methods the API's
 * routes serve (`allowedMethods`, read once the routes exist) and the headers its document names
 * (`headers`: corsHeadersOf). Keys travel in the Authorization header, never in cookies, so
 * credentials are not allowed.
 */
export function corsOptions(origins: readonly string[], allowedMethods: () => readonly string[], headers: CorsHeaders): FastifyCorsOptions {
  let options: FastifyCorsOptions | undefined;
  return {
    delegator: (_request, callback) => {
      options ??= {
        origin: origins.includes('*') ? '*' : [...origins],
        methods: [...allowedMethods()],
        allowedHeaders: [...headers.allowedHeaders],
        exposedHeaders: [...headers.exposedHeaders],
        maxAge: 600,
      };
      callback(null, options);
    },
  };
}
