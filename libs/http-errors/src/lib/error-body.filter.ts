import { ArgumentsHost, Catch, ExceptionFilter } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiException } from './api.exception';
import type { ErrorAnswerCounter } from './error-metrics';
import { toErrorResponse } from './error-response';

/** The one place that writes error answers: every exception becomes an Error body. */
@Catch()
export class ErrorBodyFilter implements ExceptionFilter {
  constructor(private readonly errorAnswers: ErrorAnswerCounter) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    sendError(exception, http.getRequest<FastifyRequest>(), http.getResponse<FastifyReply>(), this.errorAnswers);
  }
}

/** Sends the Error body for `exception`, counted, logging server faults; also for the URLs Fastify's router rejects. */
export function sendError(exception: unknown, request: FastifyRequest, reply: FastifyReply, errorAnswers: ErrorAnswerCounter): void {
  const { status, body, headers } = toErrorResponse(exception, request);
  errorAnswers.count(body.code);
  // A 503 the service chose (a drain's /readyz, at every check) is told by its message; one that befell it, with its cause.
  if (status === 503 && exception instanceof ApiException) request.log.warn(body.message);
  else if (status === 503) request.log.warn({ err: exception }, body.message);
  else if (status >= 500) request.log.error({ err: exception }, 'Unhandled error');
  void reply.status(status).headers(headers).type('application/json; charset=utf-8').send(body);
}
