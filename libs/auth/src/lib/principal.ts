import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';

/** Who made an authenticated request: the API key that was presented, by a non-secret label. */
export interface Principal {
  readonly keyId: string;
}

/** A handler's parameter: the API key that sent the request, which authentication set before any handler that is not `@Public()`. */
export const Principal = createParamDecorator((_data: unknown, context: ExecutionContext): Principal => {
  const { principal, routeOptions } = context.switchToHttp().getRequest<FastifyRequest>();
  if (!principal) throw new Error(`${routeOptions.url ?? 'A route'} takes @Principal() but is @Public(): no key was asked for`);
  return principal;
});

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the bearer authentication hook on every request it lets through. */
    principal: Principal | null;
  }
}
