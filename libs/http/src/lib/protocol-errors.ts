import { randomUUID } from 'node:crypto';
import { type IncomingMessage, type ServerResponse, STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { ApiException, HttpErrorCode, errorResponseFor } from '@petstore/http-errors';
import { requestIdFor } from './http-setup';
import { API_HEADERS } from './security';

// Node's HTTP layer answers some requests by itself, before Fastify sees them, with an empty or
// text body. Each such path is taken over here so that every error answer is the Error body, with
// the headers and the access-log line of every other answer, and no echo of what the client sent.

const JSON_TYPE = 'application/json; charset=utf-8';

const CLIENT_ERRORS: Readonly<Record<string, { status: number; message: string }>> = {
  HPE_HEADER_OVERFLOW: { status: 431, message: 'Request headers are too large' },
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, message: 'Request was not received in time' },
};

/**
 * Node's clientError event: the request could not be parsed (malformed, headers too large) or
 * did not arrive in time. No request or reply exists, so the answer is written to the socket,
 * unless an answer was already begun; the connection is closed either way.
 */
export function clientErrorHandler(this: FastifyInstance, error: NodeJS.ErrnoException, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const { status, message } = CLIENT_ERRORS[error.code ?? ''] ?? { status: 400, message: 'Malformed HTTP request' };
  const begun = (socket as Socket & { _httpMessage?: ServerResponse })._httpMessage?.headersSent;
  if (!begun) writeErrorAndClose(this.log, socket, status, message, randomUUID());
  socket.destroy(error);
}

/** Writes an Error answer straight to a socket that has no request or reply object, and closes it. */
function writeErrorAndClose(log: FastifyBaseLogger, socket: Duplex, status: number, message: string, requestId: string): void {
  if (!socket.writable) return;
  const body = JSON.stringify(errorResponseFor(status, message).body);
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
function refuseTunnel(log: FastifyBaseLogger, request: IncomingMessage, socket: Duplex): void {
  socket.once('finish', () => socket.destroy());
  writeErrorAndClose(log, socket, 405, 'CONNECT is not supported: this is not a proxy', requestIdFor(request));
}

/** Node's answer to an Expect header other than 100-continue: 417, with the Error body. */
function answerExpectationFailed(log: FastifyBaseLogger, request: IncomingMessage, response: ServerResponse): void {
  const requestId = requestIdFor(request);
  const body = JSON.stringify(errorResponseFor(417, 'Only Expect: 100-continue is supported').body);
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
 * Every error answer the process sends is the Error body, and a request the service refused
 * before reading its body does not get to send that body:
 * - HTTP/1.1 without Host is 400 (RFC 9112 §3.2), as Node would say, but with the Error body;
 * - Expect other than 100-continue is 417 with the Error body; CONNECT is 405;
 * - an error answer that a plugin wrote as text (a CORS preflight without Origin, say) is
 *   rewritten as the Error body of its status;
 * - an answer sent before the request's body was read in full (401, 413, 415…) closes the
 *   connection, instead of letting Node read and discard whatever the client keeps sending.
 */
export function registerProtocolGuards(fastify: FastifyInstance): void {
  fastify.server.on('checkExpectation', (request: IncomingMessage, response: ServerResponse) =>
    answerExpectationFailed(fastify.log, request, response),
  );
  fastify.server.on('connect', (request: IncomingMessage, socket: Duplex) => refuseTunnel(fastify.log, request, socket));
  fastify.addHook('onRequest', (request, _reply, done) => {
    if (request.raw.httpVersion === '1.1' && request.headers.host === undefined) {
      done(new ApiException(HttpErrorCode.BadRequest, 400, 'An HTTP/1.1 request must carry a Host header'));
    } else {
      done();
    }
  });
  fastify.addHook('onSend', (request, reply, payload, done) => {
    if (!request.raw.complete) reply.header('connection', 'close');
    if (reply.statusCode < 400 || String(reply.getHeader('content-type')).startsWith('application/json')) return done(null, payload);
    reply.type(JSON_TYPE);
    done(null, JSON.stringify(errorResponseFor(reply.statusCode).body));
  });
}
