import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { type ErrorAnswerCounter, sendError } from '@petstore/http-errors';
import type { FastifyInstance, FastifyReply, FastifyRequest, LogController } from 'fastify';
import { API_HEADERS } from './security';

const REQUEST_ID = /^[\w.:-]{1,128}$/;

/** Uses the caller's X-Request-Id when it is a plain token, so logs can be correlated across services. */
export function requestIdFor(request: IncomingMessage): string {
  const supplied = request.headers['x-request-id'];
  return typeof supplied === 'string' && REQUEST_ID.test(supplied) ? supplied : randomUUID();
}

/** Fastify's `frameworkErrors`: no hook runs for a URL its router refused, so this adds what hooks add to every answer. */
export function answerUnroutable(accessLog: Pick<LogController, 'requestCompleted'>, errorAnswers: ErrorAnswerCounter) {
  return (error: unknown, request: FastifyRequest, reply: FastifyReply): void => {
    reply.headers(API_HEADERS).header('x-request-id', request.id);
    reply.raw.once('finish', () => accessLog.requestCompleted(null, request, reply));
    sendError(error, request, reply, errorAnswers);
  };
}

/** Echoes the request id and adds the headers a route declares (RouteHeaders). */
export function registerResponseHeaders(fastify: FastifyInstance): void {
  fastify.addHook('onSend', (request, reply, payload, done) => {
    reply.header('x-request-id', request.id);
    const headers = request.routeOptions.config.responseHeaders;
    if (headers) reply.headers(headers);
    done(null, payload);
  });
}
