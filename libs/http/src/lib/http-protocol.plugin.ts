import type { ErrorAnswerCounter } from '@petstore/http-errors';
import fastifyPlugin from 'fastify-plugin';
import { registerConditionalGets } from './conditional-get';
import { registerExactAnswers } from './exact-json-serializer';
import { registerResponseHeaders } from './http-setup';
import { registerJsonBodyParser } from './json-body.parser';
import { registerProtocolGuards } from './protocol-errors';
import { registerSecurityHeaders } from './security';

export interface HttpProtocolOptions {
  readonly errorAnswers: ErrorAnswerCounter;
}

/** HTTP as the service speaks it. Security headers first (refusals carry them); after observability, so refusals are counted. */
export const httpProtocol = fastifyPlugin<HttpProtocolOptions>(
  (fastify, { errorAnswers }, done) => {
    registerSecurityHeaders(fastify);
    registerProtocolGuards(fastify, errorAnswers);
    registerJsonBodyParser(fastify);
    registerResponseHeaders(fastify);
    registerConditionalGets(fastify);
    registerExactAnswers(fastify);
    done();
  },
  { name: 'petstore-http-protocol', fastify: '5.x', dependencies: ['petstore-observability'] },
);
