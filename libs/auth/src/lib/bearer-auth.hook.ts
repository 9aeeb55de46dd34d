import { createParamDecorator, type ExecutionContext, Injectable, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { ApiException, HttpErrorCode } from '@petstore/http-errors';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import passport from 'passport';
import { AuthMetrics } from './auth-metrics';
import { AUTH_REALM, RoutePolicy } from '@petstore/http';
import { type AuthenticationRequest, BEARER_STRATEGY, BearerStrategy } from './bearer.strategy';
import { clientAddressOf } from './rate-limit/client-address';
import { type Quota, rateLimitHeaders, RateLimits } from './rate-limit/rate-limits';

type FailureReason = 'missing' | 'malformed' | 'ambiguous' | 'invalid';

const challenge = (error?: 'invalid_request' | 'invalid_token') => `Bearer realm="${AUTH_REALM}"${error ? `, error="${error}"` : ''}`;

const UNAUTHORIZED: Record<FailureReason, { message: string; challenge: string }> = {
  missing: { message: 'Missing bearer token in the Authorization header', challenge: challenge() },
  malformed: { message: "Authorization header must be 'Bearer <API key>'", challenge: challenge('invalid_request') },
  // Node keeps the first of several, a proxy or a log pipeline may read the last: neither is trusted.
  ambiguous: { message: 'Exactly one Authorization header is allowed', challenge: challenge('invalid_request') },
  invalid: { message: 'Invalid API key', challenge: challenge('invalid_token') },
};

const AUTHORIZATION = /^authorization$/i;

class AuthenticationFailure extends Error {
  constructor(readonly reason: FailureReason) {
    super(reason);
  }
}

/** The middleware of passport.authenticate() (the connect framework's, passport's default), which passport types `any`. */
type AuthenticateMiddleware = (request: AuthenticationRequest, response: object, next: (error: unknown) => void) => void;

function unauthorized(reason: FailureReason, quota: Quota): ApiException {
  const { message, challenge } = UNAUTHORIZED[reason];
  return new ApiException(HttpErrorCode.Unauthorized, 401, message, { 'www-authenticate': challenge, ...rateLimitHeaders(quota) });
}

function rateLimited(quota: Quota): ApiException {
  const message = `Rate limit exceeded; retry in ${quota.resetSeconds} s`;
  return new ApiException(HttpErrorCode.RateLimited, 429, message, {
    'retry-after': String(Math.max(quota.resetSeconds, 1)),
    ...rateLimitHeaders(quota),
  });
}

/** Authenticates and rate-limits every non-Public route in onRequest, before the body is read: docs/security.md. */
@Injectable()
export class BearerAuthHook implements OnModuleInit {
  /** This application's own passport: two apps in one process each authenticate with their own strategy. */
  private readonly passport = new passport.Authenticator();

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly limits: RateLimits,
    private readonly metrics: AuthMetrics,
    strategy: BearerStrategy,
  ) {
    this.passport.use(BEARER_STRATEGY, strategy);
  }

  onModuleInit(): void {
    const fastify = this.adapterHost.httpAdapter.getInstance<FastifyInstance>();
    fastify.decorateRequest('principal', null);
    // Secure by default: every route but a Public one; a request no route serves just gets its 404.
    fastify.addHook('onRequest', async (request, reply) => {
      if (!request.routeOptions.config.public && !request.is404) await this.admit(request, reply);
    });
  }

  private async admit(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const attempt = new Attempt(request);
    const principal = await authenticate(this.passport, attempt).catch((error: unknown) => this.refuse(request, attempt, error));
    // Set before the key's budget is drawn on, so that a 429's access-log line names the key too.
    request.principal = principal;
    const quota = await this.limits.consumeRequest(principal.keyId);
    if (quota.exceeded) throw this.refuseOverLimit(quota);
    reply.headers(rateLimitHeaders(quota));
  }

  private async refuse(request: FastifyRequest, attempt: AuthenticationRequest, error: unknown): Promise<never> {
    if (!(error instanceof AuthenticationFailure)) throw error;
    this.metrics.authFailures.inc({ reason: error.reason });
    const { clientAddress, presented } = attempt;
    const quota = await this.limits.consumeAuthFailure(clientAddress);
    if (quota.exceeded) throw this.refuseOverLimit(quota);
    request.log.warn({ reason: error.reason, keyPrefix: presented?.keyPrefix, clientAddress }, 'Authentication failed');
    throw unauthorized(error.reason, quota);
  }

  private refuseOverLimit(quota: Quota): ApiException {
    this.metrics.rateLimited.inc({ policy: quota.policy });
    return rateLimited(quota);
  }
}

/** What the strategy sees of a request. The client's address is worked out only when a failure or a lookup is counted against it. */
class Attempt implements AuthenticationRequest {
  presented?: AuthenticationRequest['presented'];
  private address?: string;

  constructor(private readonly request: FastifyRequest) {}

  get headers(): AuthenticationRequest['headers'] {
    return this.request.headers;
  }

  get authorizationHeaders(): number {
    const raw = this.request.raw.rawHeaders;
    let count = 0;
    for (let name = 0; name < raw.length; name += 2) if (AUTHORIZATION.test(raw[name])) count++;
    return count;
  }

  get clientAddress(): string {
    return (this.address ??= clientAddressOf(this.request));
  }
}

// passport gives no reason: a token the strategy saw is "invalid".
function authenticate(authenticator: passport.Authenticator, request: AuthenticationRequest): Promise<Principal> {
  if (!request.headers.authorization) return Promise.reject(new AuthenticationFailure('missing'));
  if (request.authorizationHeaders > 1) return Promise.reject(new AuthenticationFailure('ambiguous'));
  return new Promise((resolve, reject) => {
    const onResult = (error: unknown, principal: Principal | false) => {
      // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- passed on as passport hands it: what the strategy threw
      if (error) reject(error);
      else if (principal) resolve(principal);
      else reject(new AuthenticationFailure(request.presented ? 'invalid' : 'malformed'));
    };
    (authenticator.authenticate(BEARER_STRATEGY, { session: false }, onResult) as AuthenticateMiddleware)(request, {}, reject);
  });
}

/** Who made an authenticated request: the API key that was presented, by a non-secret label. */
export interface Principal {
  readonly keyId: string;
}

// Declared in the route's policy, where @Public() on the same handler is refused as the class is declared.
const takesPrincipal: ParameterDecorator = (target, key) => {
  const method = key as string | symbol;
  RoutePolicy({ takesPrincipal: true })(target, method, Object.getOwnPropertyDescriptor(target, method) as PropertyDescriptor);
};

/** A handler's parameter: the API key that sent the request, which authentication set; a `@Public()` handler cannot take it. */
export const Principal = createParamDecorator(
  (_data: unknown, context: ExecutionContext): Principal => context.switchToHttp().getRequest<FastifyRequest>().principal as Principal,
  [takesPrincipal],
);

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the bearer authentication hook on every request it lets through. */
    principal: Principal | null;
  }
}
