import type { FastifyInstance } from 'fastify';
import { stringify } from 'lossless-json';

/**
 * Answers of routes without a response schema are written by lossless-json instead of
 * JSON.stringify, which throws on bigint: an int64 is written as its exact digits, so a route
 * that forgets its schema is slower, never a 500. Routes with a schema keep Fastify's compiled
 * serializer (the hot path).
 */
export function registerExactJsonSerializer(fastify: FastifyInstance): void {
  fastify.setReplySerializer((payload) => stringify(payload) ?? '');
}
