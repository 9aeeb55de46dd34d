import helmet, { type FastifyHelmetOptions } from '@fastify/helmet';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyInstance } from 'fastify';

/** A JSON API's answers: nothing in them may load, frame, be framed or be sniffed. */
const API_SECURITY_HEADERS: FastifyHelmetOptions = {
  contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } },
  frameguard: { action: 'deny' },
  referrerPolicy: { policy: 'no-referrer' },
};

/**
 * Swagger UI: its own scripts, styles (inline ones too) and data: images. No upgrade to https,
 * which would break it on a developer's http://localhost.
 */
const DOCS_SECURITY_HEADERS: FastifyHelmetOptions = {
  contentSecurityPolicy: { useDefaults: true, directives: { upgradeInsecureRequests: null } },
};

/** Security headers (@fastify/helmet) on every answer, relaxed for the interactive docs under `docsPrefix`. */
export async function registerSecurityHeaders(fastify: FastifyInstance, docsPrefix: string): Promise<void> {
  // Runs before helmet's own onRoute hook, which reads the route's `helmet` option.
  fastify.addHook('onRoute', (route) => {
    if (route.url.startsWith(docsPrefix)) route.helmet = DOCS_SECURITY_HEADERS;
  });
  await fastify.register(helmet, API_SECURITY_HEADERS);
}

/**
 * CORS for browser clients of the listed origins ('*' for any). Keys travel in the
 * Authorization header, never in cookies, so credentials are not allowed.
 */
export function corsOptions(origins: readonly string[]): Parameters<NestFastifyApplication['enableCors']>[0] {
  return {
    origin: origins.includes('*') ? '*' : [...origins],
    methods: ['GET', 'HEAD', 'POST'],
    allowedHeaders: ['Authorization', 'Content-Type', 'X-Request-Id'],
    exposedHeaders: ['Location', 'Link', 'Deprecation', 'Sunset', 'Retry-After', 'RateLimit', 'RateLimit-Policy', 'X-Request-Id'],
    maxAge: 600,
  };
}
