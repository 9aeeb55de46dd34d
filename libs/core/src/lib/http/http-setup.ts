import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { LogController } from 'fastify';
import { ApiException } from '../errors/api.exception';
import { ErrorCode } from '../errors/error-code';

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

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

/**
 * Makes a method that a known path under `prefix` does not serve answer 405 with an
 * Allow header, instead of Fastify's 404. Call it before the routes are registered and
 * call the returned function after, before the server starts listening.
 */
export function methodNotAllowedFor(fastify: FastifyInstance, prefix: string): () => void {
  const methodsByUrl = new Map<string, Set<string>>();
  fastify.addHook('onRoute', (route) => {
    if (!route.url.startsWith(prefix)) return;
    const methods = methodsByUrl.get(route.url) ?? new Set<string>();
    for (const method of [route.method].flat()) methods.add(method);
    methodsByUrl.set(route.url, methods);
  });
  return () => {
    const routes = [...methodsByUrl];
    methodsByUrl.clear();
    for (const [url, served] of routes) {
      if (served.has('GET')) served.add('HEAD');
      const allow = METHODS.filter((method) => served.has(method)).join(', ');
      const others = METHODS.filter((method) => !served.has(method));
      fastify.route({
        method: others,
        url,
        handler: () => {
          throw new ApiException(ErrorCode.MethodNotAllowed, 405, `Method not allowed; ${url} allows ${allow}`, { allow });
        },
      });
    }
  };
}
