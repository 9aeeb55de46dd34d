import type { ErrorAnswerCounter } from '@petstore/http-errors';
import fastifyPlugin from 'fastify-plugin';
import { registerConditionalGets } from './conditional-get';
import { registerResponseHeaders } from './http-setup';
import { registerJsonBodyParser } from './json-body.parser';
import { registerProtocolGuards } from './protocol-errors';
import { registerSecurityHeaders } from './security';

export interface HttpProtocolOptions {
  readonly errorAnswers: ErrorAnswerCounter;
  /** Where the documentation's pages are served: their own security headers (they run Swagger UI). */
  readonly docsPrefix: string;
}

/** HTTP as the service speaks it. Security headers first (refusals carry them); after observability, so refusals are counted. */
export const httpProtocol = fastifyPlugin<HttpProtocolOptions>(
  (fastify, { errorAnswers, docsPrefix }, done) => {
    registerSecurityHeaders(fastify, docsPrefix);
    registerProtocolGuards(fastify, errorAnswers);
    registerJsonBodyParser(fastify);
    registerResponseHeaders(fastify);
    registerConditionalGets(fastify);
    done();
  },
  { name: 'petstore-http-protocol', fastify: '5.x', dependencies: ['petstore-observability'] },
);
