import { ArgumentsHost, Catch, ExceptionFilter } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { toErrorResponse } from '../errors/error-response';

/** The one place that writes error answers: every exception becomes an Error body. */
@Catch()
export class ErrorBodyFilter implements ExceptionFilter {
  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const reply = http.getResponse<FastifyReply>();
    const { status, body, headers } = toErrorResponse(exception);
    if (status === 503) request.log.warn({ err: exception }, body.message);
    else if (status >= 500) request.log.error({ err: exception }, 'Unhandled error');
    void reply.status(status).headers(headers).type('application/json; charset=utf-8').send(body);
  }
}
