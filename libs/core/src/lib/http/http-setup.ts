import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { LogController } from 'fastify';
import { sendError } from './error-body.filter';
import { API_HEADERS } from './security';

/** Extra response headers a route declares in its config, sent with every answer of that route, errors included. */
export interface RouteHeadersConfig {
  readonly responseHeaders?: Readonly<Record<string, string>>;
}

const REQUEST_ID = /^[\w.:-]{1,128}$/;

/** Uses the caller's X-Request-Id when it is a plain token, so logs can be correlated across services. */
export function requestIdFor(request: IncomingMessage): string {
  const supplied = request.headers['x-request-id'];
  return typeof supplied === 'string' && REQUEST_ID.test(supplied) ? supplied : randomUUID();
}

/** What authentication leaves on a request: the key's public name (its prefix, or env-N), never the secret. */
interface AuthenticatedRequest {
  readonly principal?: { readonly keyId: string } | null;
}

/** One access-log line per request, after the answer, instead of Fastify's two; it names the key that made it. */
export class AccessLogController extends LogController {
  /** @param logsRequests whether the log level lets the per-request line through (`info` or finer). */
  constructor(private readonly logsRequests: boolean) {
    super();
  }

  override incomingRequest(): void {
    // Logged once, on completion.
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (!error && !this.logsRequests) return;
    const line = {
      method: request.method,
      url: redactedUrl(request.url),
      statusCode: reply.statusCode,
      responseTime: reply.elapsedTime,
      key: (request as AuthenticatedRequest).principal?.keyId,
    };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else reply.log.info(line, 'request completed');
  }
}

/**
 * Fastify's `frameworkErrors`: answers a request its router refused (a malformed percent-encoding)
 * as every routed answer goes out, though no hook runs for it: security headers, X-Request-Id,
 * the Error body (which does not echo the URL) and the access-log line.
 */
export function answerUnroutable(accessLog: AccessLogController) {
  return (error: unknown, request: FastifyRequest, reply: FastifyReply): void => {
    reply.headers(API_HEADERS).header('x-request-id', request.id);
    reply.raw.once('finish', () => accessLog.requestCompleted(null, request, reply));
    sendError(error, request, reply);
  };
}

/** Keeps a token a client wrongly put in the query string out of the logs. */
function redactedUrl(url: string): string {
  return url.replace(/([?&]access_token=)[^&]*/gi, '$1[REDACTED]');
}

/** Echoes the request id and adds the headers a route declares in its config (see RouteHeadersConfig). */
export function registerResponseHeaders(fastify: FastifyInstance): void {
  fastify.addHook('onSend', (request, reply, payload, done) => {
    reply.header('x-request-id', request.id);
    const headers = (request.routeOptions.config as RouteHeadersConfig).responseHeaders;
    if (headers) reply.headers(headers);
    done(null, payload);
  });
}
