import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { ApiException, ErrorCode } from '@petstore/core';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import passport from 'passport';
import { AUTH_REALM, BearerStrategy } from './bearer.strategy';
import type { Principal } from './principal';

/** Injection token: routes whose path starts with this prefix require a bearer token. */
export const PROTECTED_PREFIX = Symbol('PROTECTED_PREFIX');

const challenge = (error?: 'invalid_request' | 'invalid_token') =>
  `Bearer realm="${AUTH_REALM}"${error ? `, error="${error}"` : ''}`;

const missing = () =>
  new ApiException(ErrorCode.Unauthorized, 401, 'Missing bearer token in the Authorization header', { 'www-authenticate': challenge() });
const malformed = () =>
  new ApiException(ErrorCode.Unauthorized, 401, "Authorization header must be 'Bearer <API key>'", {
    'www-authenticate': challenge('invalid_request'),
  });
const invalid = () => new ApiException(ErrorCode.Unauthorized, 401, 'Invalid API key', { 'www-authenticate': challenge('invalid_token') });

/**
 * Authenticates every request to a protected route in Fastify's onRequest hook: before the
 * body is read and before any parameter is validated, so an unauthenticated client learns
 * nothing but 401. Only the Authorization header is consulted; passport-http-bearer is
 * shown the headers alone so it cannot take a token from the query string or the body.
 */
@Injectable()
export class BearerAuthHook implements OnModuleInit {
  constructor(
    private readonly adapterHost: HttpAdapterHost,
    @Inject(PROTECTED_PREFIX) private readonly prefix: string,
    // Injected so that the strategy is registered with passport before the first request.
    readonly strategy: BearerStrategy,
  ) {}

  onModuleInit(): void {
    const fastify = this.adapterHost.httpAdapter.getInstance<FastifyInstance>();
    fastify.decorateRequest('principal', null);
    fastify.addHook('onRequest', async (request) => {
      if (request.routeOptions.url?.startsWith(this.prefix)) request.principal = await authenticate(request);
    });
  }
}

function authenticate(request: FastifyRequest): Promise<Principal> {
  if (!request.headers.authorization) return Promise.reject(missing());
  return new Promise((resolve, reject) => {
    const onResult = (error: unknown, principal: Principal | false, challenged?: unknown) => {
      if (error) reject(error);
      else if (principal) resolve(principal);
      else reject(typeof challenged === 'string' && challenged.includes('invalid_token') ? invalid() : malformed());
    };
    passport.authenticate('bearer', { session: false }, onResult)({ headers: request.headers }, {}, reject);
  });
}
