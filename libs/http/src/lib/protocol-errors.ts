import { randomUUID } from 'node:crypto';
import { type IncomingMessage, type ServerResponse, STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { FastifyBaseLogger, FastifyInstance, FastifyReply } from 'fastify';
import { ApiException, type ErrorAnswerCounter, HttpErrorCode, errorResponseFor } from '@petstore/http-errors';
import { requestIdFor } from './http-setup';
import { API_HEADERS } from './security';
import { closesAfterAnswer, drainAfterAnswer, drainUnreadBody, hasUnreadBody, isDrainingAfterAnswer } from './unread-body';

// Node's HTTP layer answers some requests by itself, before Fastify sees them, with an empty or
// text body. Each such path is taken over here so that every error answer is the Error body, with
// the headers and the access-log line of every other answer, and no echo of what the client sent.

const JSON_TYPE = 'application/json; charset=utf-8';

const CLIENT_ERRORS: Readonly<Record<string, { status: number; message: string }>> = {
  HPE_HEADER_OVERFLOW: { status: 431, message: 'Request headers are too large' },
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, message: 'Request was not received in time' },
};

/** The Error body of an answer about to be sent, as JSON text, counted by its code. */
function sentErrorBody(errorAnswers: ErrorAnswerCounter, status: number, message?: string): string {
  const { body } = errorResponseFor(status, message);
  errorAnswers.count(body.code);
  return JSON.stringify(body);
}

/**
 * Fastify's clientErrorHandler, for Node's clientError event: the request could not be parsed
 * (malformed, headers too large) or did not arrive in time. No request or reply exists, so the
 * answer is written to the socket (Node's documented way, as Fastify's own handler does), unless
 * the request was already answered (its body being drained); the connection is closed either way.
 */
export function clientErrorHandler(errorAnswers: ErrorAnswerCounter) {
  return function answerClientError(this: FastifyInstance, error: NodeJS.ErrnoException, socket: Socket): void {
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    if (isDrainingAfterAnswer(socket)) return void socket.destroy(error);
    const { status, message } = CLIENT_ERRORS[error.code ?? ''] ?? { status: 400, message: 'Malformed HTTP request' };
    writeErrorAndClose(this.log, errorAnswers, socket, status, message, randomUUID());
    socket.destroy(error);
  };
}

/** Writes an Error answer straight to a socket that has no request or reply object, and closes it. */
function writeErrorAndClose(
  log: FastifyBaseLogger,
  errorAnswers: ErrorAnswerCounter,
  socket: Duplex,
  status: number,
  message: string,
  requestId: string,
): void {
  if (!socket.writable) return;
  const body = sentErrorBody(errorAnswers, status, message);
  const headers = { ...API_HEADERS, 'x-request-id': requestId, 'content-type': JSON_TYPE, 'content-length': Buffer.byteLength(body) };
  const head = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
  socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${head.join('')}connection: close\r\n\r\n${body}`);
  logRefusal(log, status, requestId);
}

/** The access-log line of an answer made before Fastify had a request: its status and id, no client input. */
function logRefusal(log: FastifyBaseLogger, statusCode: number, requestId: string): void {
  log.info({ reqId: requestId, statusCode }, 'request refused');
}

/** Node hands CONNECT (a tunnel request) to a 'connect' listener or drops the connection: answer 405 instead. */
function refuseTunnel(log: FastifyBaseLogger, errorAnswers: ErrorAnswerCounter, request: IncomingMessage, socket: Duplex): void {
  socket.once('finish', () => socket.destroy());
  writeErrorAndClose(log, errorAnswers, socket, 405, 'CONNECT is not supported: this is not a proxy', requestIdFor(request));
}

/** Node's answer to an Expect header other than 100-continue: 417, with the Error body. */
function answerExpectationFailed(
  log: FastifyBaseLogger,
  errorAnswers: ErrorAnswerCounter,
  request: IncomingMessage,
  response: ServerResponse,
): void {
  const requestId = requestIdFor(request);
  const body = sentErrorBody(errorAnswers, 417, 'Only Expect: 100-continue is supported');
  response.writeHead(417, {
    ...API_HEADERS,
    'x-request-id': requestId,
    'content-type': JSON_TYPE,
    'content-length': Buffer.byteLength(body),
    connection: 'close',
  });
  response.end(body);
  logRefusal(log, 417, requestId);
}

/**
 * Fastify options that hand to Fastify what Node would answer by itself: an HTTP/1.1 request
 * without Host (refused by requireHostHeaders below, with the Error body).
 */
export const NODE_SERVER_OPTIONS = { requireHostHeader: false } as const;

/**
 * Every error answer the process sends is the Error body, and reaches a client that is still
 * sending the body of a request refused before reading it:
 * - HTTP/1.1 without Host is 400 (RFC 9112 §3.2), as Node would say, but with the Error body;
 * - Expect other than 100-continue is 417 with the Error body; CONNECT is 405;
 * - an error answer that a plugin wrote as text (a CORS preflight without Origin, say) is
 *   rewritten as the Error body of its status;
 * - an answer sent before the request's body was read in full (401, 413, 415…) is followed by a
 *   bounded drain of that body (unread-body.ts) instead of a close on unread bytes, or, when the
 *   connection closes after the answer, preceded by it.
 */
export function registerProtocolGuards(fastify: FastifyInstance, errorAnswers: ErrorAnswerCounter): void {
  fastify.server.on('checkExpectation', (request: IncomingMessage, response: ServerResponse) =>
    answerExpectationFailed(fastify.log, errorAnswers, request, response),
  );
  fastify.server.on('connect', (request: IncomingMessage, socket: Duplex) => refuseTunnel(fastify.log, errorAnswers, request, socket));
  fastify.addHook('onRequest', (request, _reply, done) => {
    if (request.raw.httpVersion === '1.1' && request.headers.host === undefined) {
      done(new ApiException(HttpErrorCode.BadRequest, 400, 'An HTTP/1.1 request must carry a Host header'));
    } else {
      done();
    }
  });
  fastify.addHook('onSend', (request, reply, payload, done) => {
    const answer = asErrorBody(reply, payload, errorAnswers);
    if (!hasUnreadBody(request.raw)) return done(null, answer);
    // Fastify asks for a close after a body it refused; the body is drained instead. (Node leaves
    // out its own Connection header once one is removed: removed only when there is one.)
    if (reply.hasHeader('connection')) reply.removeHeader('connection');
    if (closesAfterAnswer(request.raw)) {
      // Node closes the connection once the answer is written: the body is drained first.
      void drainUnreadBody(request.raw).then(() => done(null, answer));
    } else {
      drainAfterAnswer(request.raw);
      done(null, answer);
    }
  });
}

/** The payload of an answer, or the Error body of its status when it is an error answer written as text. */
function asErrorBody(reply: FastifyReply, payload: unknown, errorAnswers: ErrorAnswerCounter): unknown {
  if (reply.statusCode < 400 || String(reply.getHeader('content-type')).startsWith('application/json')) return payload;
  reply.type(JSON_TYPE);
  return sentErrorBody(errorAnswers, reply.statusCode);
}
