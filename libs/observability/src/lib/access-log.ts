import type { FastifyReply, FastifyRequest } from 'fastify';
import { LogController } from 'fastify';
import { TOKEN_QUERY_PARAMETER } from './query-token';

/** What the access-log line says of a request beyond method, URL, status and time: who made it, say. Never a secret. */
export type AccessLogFields = (request: FastifyRequest) => Readonly<Record<string, unknown>>;

/** One access-log line per request, after the answer, instead of Fastify's two; with what the app adds (AccessLogFields). */
export class AccessLogController extends LogController {
  /** @param logsRequests whether the log level lets the per-request line through (`info` or finer). */
  constructor(
    private readonly logsRequests: boolean,
    private readonly fieldsOf: AccessLogFields = () => ({}),
  ) {
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
      ...this.fieldsOf(request),
    };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else reply.log.info(line, 'request completed');
  }
}

const TOKEN_IN_QUERY = new RegExp(`([?&]${TOKEN_QUERY_PARAMETER}=)[^&]*`, 'gi');

/** Keeps a token a client wrongly put in the query string out of the logs. */
function redactedUrl(url: string): string {
  return url.replace(TOKEN_IN_QUERY, '$1[REDACTED]');
}
