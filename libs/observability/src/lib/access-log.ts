import type { FastifyReply, FastifyRequest } from 'fastify';
import { LogController } from 'fastify';

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
