import { Controller, Get, Header, Headers, Inject, Optional } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { Public } from '@petstore/http';
import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { Registry } from 'prom-client';
import { ApiException, HttpErrorCode, errorResponseFor } from '@petstore/http-errors';
import type { AppMetrics } from './metrics-registry';

/** Injection token: the bearer token a scraper must send, if any (METRICS_TOKEN). */
export const METRICS_TOKEN = Symbol('METRICS_TOKEN');

const digest = (text: string) => createHash('sha256').update(text).digest();

/** Whether an Authorization header carries the metrics token (compared in constant time), or no token is asked for. */
function admitsScraper(token: string | undefined, authorization: string | undefined): boolean {
  return token === undefined || timingSafeEqual(digest(`Bearer ${token}`), digest(authorization ?? ''));
}

const SCRAPER_CHALLENGE = { 'www-authenticate': 'Bearer realm="metrics"' };

/** Prometheus metrics on the API's port, outside /v1 and the contract; its own port or token: docs/operations.md, "Metrics". */
@ApiExcludeController()
@Controller()
export class MetricsController {
  constructor(
    private readonly registry: Registry,
    @Optional() @Inject(METRICS_TOKEN) private readonly token?: string,
  ) {}

  @Get('metrics')
  @Public()
  @Header('content-type', Registry.PROMETHEUS_CONTENT_TYPE)
  async metrics(@Headers('authorization') authorization?: string): Promise<string> {
    if (!admitsScraper(this.token, authorization)) {
      throw new ApiException(HttpErrorCode.Unauthorized, 401, 'The metrics token is missing or wrong', SCRAPER_CHALLENGE);
    }
    return this.registry.metrics();
  }
}

/** Serves an application's GET /metrics alone on its own port, so that only the platform's network reaches it. */
export async function serveMetricsOnOwnPort(
  { registry, errorAnswers }: AppMetrics,
  port: number,
  host: string,
  token: string | undefined,
): Promise<Server> {
  const server = createServer((request, response) => {
    const answer = (status: number, body: string, headers: Record<string, string>) => response.writeHead(status, headers).end(body);
    const error = (status: number, headers: Record<string, string> = {}) => {
      const { body } = errorResponseFor(status);
      errorAnswers.count(body.code);
      answer(status, JSON.stringify(body), { 'content-type': 'application/json; charset=utf-8', ...headers });
    };
    if (request.url?.split('?')[0] !== '/metrics') return error(404);
    if (request.method !== 'GET' && request.method !== 'HEAD') return error(405, { allow: 'GET, HEAD' });
    if (!admitsScraper(token, request.headers.authorization)) return error(401, SCRAPER_CHALLENGE);
    registry.metrics().then(
      (text) => answer(200, text, { 'content-type': registry.contentType }),
      () => error(500),
    );
  });
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, host, resolve));
  return server;
}
