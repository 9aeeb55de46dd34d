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

/** Schema-less routes answer by lossless-json (int64 exact, never a 500); set per route so others keep theirs. Call first. */
export function registerExactJsonSerializer(fastify: FastifyInstance): void {
  fastify.addHook('onRoute', (route: RouteOptions) => {
    if (route.schema?.response) return;
    route.preSerialization = [...[route.preSerialization ?? []].flat(), serializeExactly];
  });
}
