import type { FastifyCorsOptions } from '@fastify/cors';
import type { FastifyInstance } from 'fastify';
import type { HelmetOptions } from 'helmet';
import type { CorsHeaders } from './cors-headers';
import { helmetHeaders } from './precomputed-helmet-headers';

/** A JSON API's headers (OWASP REST Security Cheat Sheet); helmet's headers for HTML pages say nothing about JSON. */
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

// Swagger UI: no upgrade to https (it would break http://localhost); connect-src stated, so no change to default-src widens it.
export const DOCS_SECURITY_HEADERS: HelmetOptions = {
  contentSecurityPolicy: {
    useDefaults: true,
    directives: { connectSrc: ["'self'"], frameAncestors: ["'none'"], upgradeInsecureRequests: null },
  },
};

/** The API's security headers and `Cache-Control: no-store`, worked out once; also sent where no hook runs (protocol-errors.ts). */
export const API_HEADERS: Readonly<Record<string, string>> = { ...helmetHeaders(API_SECURITY_HEADERS), 'cache-control': 'no-store' };

/** The security headers of pages that run Swagger UI, worked out once: a route's `securityHeaders`. */
export const DOCS_PAGE_HEADERS: Readonly<Record<string, string>> = helmetHeaders(DOCS_SECURITY_HEADERS);

/**
 * Security headers on every answer: the route's own (`securityHeaders`), else the API's. Not
 * @fastify/helmet: it runs helmet per request, in two hooks of every route.
 */
export function registerSecurityHeaders(fastify: FastifyInstance): void {
  fastify.addHook('onRequest', (request, reply, done) => {
    reply.headers(request.routeOptions.config.securityHeaders ?? API_HEADERS);
    done();
  });
}

/** CORS for the listed origins, with the routes' methods and the document's headers; keys are not cookies: no credentials. */
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
