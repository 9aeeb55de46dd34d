import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { stringify } from 'lossless-json';

/** Writes an answer with lossless-json, which writes a bigint as its exact digits where JSON.stringify throws. */
function exactJson(payload: unknown): string {
  return stringify(payload) ?? '';
}

function serializeExactly(_request: FastifyRequest, reply: FastifyReply, payload: unknown, done: (error: null, payload: unknown) => void) {
  reply.serializer(exactJson);
  done(null, payload);
}

/**
 * Answers of routes without a response schema are written by lossless-json instead of
 * JSON.stringify: an int64 is written as its exact digits, so a route that forgets its schema is
 * slower, never a 500. Routes with a schema keep Fastify's compiled serializer, the hot path:
 * Fastify's default reply serializer would replace it on every route, so each schema-less route
 * gets this one as it is added. Call before any route is added.
 */
export function registerExactJsonSerializer(fastify: FastifyInstance): void {
  fastify.addHook('onRoute', (route: RouteOptions) => {
    if (route.schema?.response) return;
    route.preSerialization = [...[route.preSerialization ?? []].flat(), serializeExactly];
  });
}
