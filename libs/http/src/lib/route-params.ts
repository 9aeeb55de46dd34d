import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** What a handler may do to its answer besides returning its body: set a header (Location, Link). */
export interface AnswerHeaders {
  set(name: string, value: string): void;
}

/** The answer's headers; not the reply itself, which is thenable: Nest would await it as the parameter's value. */
export const AnswerHeaders = createParamDecorator((_data: unknown, context: ExecutionContext): AnswerHeaders => {
  const reply = context.switchToHttp().getResponse<FastifyReply>();
  return { set: (name, value) => void reply.header(name, value) };
});

/** The URL the route is registered at (`/v1/pets`), for the links an answer gives: it follows wherever the route is served. */
export const RouteUrl = createParamDecorator(
  (_data: unknown, context: ExecutionContext): string => context.switchToHttp().getRequest<FastifyRequest>().routeOptions.url ?? '',
);
