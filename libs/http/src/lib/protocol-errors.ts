import { randomUUID } from 'node:crypto';
import { type IncomingMessage, type ServerResponse, STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { type Duplex, finished } from 'node:stream';
import type { FastifyBaseLogger, FastifyInstance, FastifyReply } from 'fastify';
import { ApiException, type ErrorAnswerCounter, HttpErrorCode, errorResponseFor } from '@petstore/http-errors';
import { requestIdFor } from './http-setup';
import { API_HEADERS } from './security';

const JSON_TYPE = 'application/json; charset=utf-8';

const CLIENT_ERRORS: Readonly<Record<string, { status: number; message: string }>> = {
  HPE_HEADER_OVERFLOW: { status: 431, message: 'Request headers are too large' },
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, message: 'Request was not received in time' },
};

function sentErrorBody(errorAnswers: ErrorAnswerCounter, status: number, message?: string): string {
  const { body } = errorResponseFor(status, message);
  errorAnswers.count(body.code);
  return JSON.stringify(body);
}

/** Fastify's clientErrorHandler: no request or reply exists, so the answer goes to the socket (Node's documented way). */
export function clientErrorHandler(errorAnswers: ErrorAnswerCounter) {
  return function answerClientError(this: FastifyInstance, error: NodeJS.ErrnoException, socket: Socket): void {
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    if (isDrainingAfterAnswer(socket)) return void socket.destroy(error);
    const { status, message } = CLIENT_ERRORS[error.code ?? ''] ?? { status: 400, message: 'Malformed HTTP request' };
    writeErrorAndClose(this.log, errorAnswers, socket, status, message, randomUUID());
    socket.destroy(error);
  };
}

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

/** Leaves a missing Host to registerProtocolGuards, which refuses it with the Error body instead of Node's own 400. */
export const NODE_SERVER_OPTIONS = { requireHostHeader: false } as const;

/** Takes over what Node answers itself, so every error answer is the Error body; drains refused bodies (below). */
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
    // Drained, not closed on. Removed only when present: once one is removed, Node leaves out its own.
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

function asErrorBody(reply: FastifyReply, payload: unknown, errorAnswers: ErrorAnswerCounter): unknown {
  if (reply.statusCode < 400 || String(reply.getHeader('content-type')).startsWith('application/json')) return payload;
  reply.type(JSON_TYPE);
  return sentErrorBody(errorAnswers, reply.statusCode);
}

/** Most bytes read to drain a refused body (drained, not closed on: docs/operations.md, "Time limits for slow clients"). */
export const UNREAD_BODY_MAX_BYTES = 4 * 1024 * 1024;

/** Longest a connection is held to drain a refused body. */
export const UNREAD_BODY_MAX_MS = 5_000;

const drainingAfterAnswer = new WeakSet<Socket>();

/** Whether this connection's request has been answered and its body is being drained: nothing more is to be written to it. */
export function isDrainingAfterAnswer(socket: Socket): boolean {
  return drainingAfterAnswer.has(socket);
}

/** Whether the body has yet to arrive in full (inject's requests do not say, and have nothing to drain). */
export function hasUnreadBody(request: IncomingMessage): boolean {
  return request.complete === false;
}

/** Whether Node will close the connection after the answer, as the client asked (RFC 9112 §9.3). */
export function closesAfterAnswer(request: IncomingMessage): boolean {
  const options = (request.headers.connection ?? '').toLowerCase().split(',');
  const named = (option: string) => options.some((value) => value.trim() === option);
  return request.httpVersion === '1.0' ? !named('keep-alive') : named('close');
}

/** Reads and discards the rest of a body within the bounds; true when it ended within them. */
export function drainUnreadBody(request: IncomingMessage): Promise<boolean> {
  const { socket } = request;
  const bytesAtStart = socket.bytesRead;
  return new Promise((resolve) => {
    const settle = (ended: boolean) => {
      clearTimeout(timer);
      request.off('data', checkBytes);
      stopWatching();
      resolve(ended);
    };
    // Bytes off the wire, framing included: a body chunked a byte at a time costs what it weighs.
    const checkBytes = () => {
      if (socket.bytesRead - bytesAtStart > UNREAD_BODY_MAX_BYTES) settle(false);
    };
    const timer = setTimeout(() => settle(false), UNREAD_BODY_MAX_MS).unref();
    const stopWatching = finished(request, (error) => settle(!error));
    request.on('data', checkBytes);
    request.resume();
  });
}

/** Drains an answered request's body: the connection stays open if it ends within the bounds, else is destroyed. */
export function drainAfterAnswer(request: IncomingMessage): void {
  const { socket } = request;
  drainingAfterAnswer.add(socket);
  void drainUnreadBody(request).then((ended) => {
    drainingAfterAnswer.delete(socket);
    if (!ended) socket.destroy();
  });
}
