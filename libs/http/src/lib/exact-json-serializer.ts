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

/** A route without a response schema answers by lossless-json (int64 exact, never a 500); others keep their compiled serializer. */
function answerExactlyWithoutSchema(route: RouteOptions): void {
  if (route.schema?.response) return;
  route.preSerialization = [...[route.preSerialization ?? []].flat(), serializeExactly];
}

/** Gives every route registered after it an exact answer, whoever registered it (a handler's ApiController, SwaggerModule, a test). */
export function registerExactAnswers(fastify: FastifyInstance): void {
  fastify.addHook('onRoute', answerExactlyWithoutSchema);
}
