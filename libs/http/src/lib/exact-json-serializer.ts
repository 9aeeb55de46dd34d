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
 * Schema-less routes answer through lossless-json (an int64 exact: slower, never a 500); set per route, not as the default
 * serializer, which would replace the compiled one of routes with a schema. Call before any route is added.
 */
export function registerExactJsonSerializer(fastify: FastifyInstance): void {
  fastify.addHook('onRoute', (route: RouteOptions) => {
    if (route.schema?.response) return;
    route.preSerialization = [...[route.preSerialization ?? []].flat(), serializeExactly];
  });
}
