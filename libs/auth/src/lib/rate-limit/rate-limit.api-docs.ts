import { applyDecorators } from '@nestjs/common';
import {
  type ApiHeader,
  type ApiHeaders,
  ApiErrorResponse,
  ApiServerErrorResponses,
  HttpErrorCode,
  type ServerErrorDocs,
} from '@petstore/http-errors';
import { AUTH_REALM } from '../auth-realm';

/** Every rate limit counts in fixed windows of this many seconds: the longest wait a 429 asks for. */
export const RATE_LIMIT_WINDOW_SECONDS = 60;
/** The names of the rate-limit policies, as the RateLimit header fields give them. */
export const RATE_LIMIT_POLICIES = { perKey: 'per-key', authFailures: 'auth-failures' } as const;

const POLICY = `"(${Object.values(RATE_LIMIT_POLICIES).join('|')})"`;

/** The RateLimit header fields (draft-ietf-httpapi-ratelimit-headers) on every answer of an authenticated operation. */
export const RATE_LIMIT_HEADERS: ApiHeaders = {
  'RateLimit-Policy': {
    description:
      'The limit that applies: `"per-key"` (requests per key) or `"auth-failures"` (failed authentications per client address); `q` requests per window of `w` seconds',
    schema: {
      type: 'string',
      pattern: `^${POLICY};q=[1-9][0-9]{0,8};w=${RATE_LIMIT_WINDOW_SECONDS}$`,
      maxLength: 64,
      example: '"per-key";q=6000;w=60',
    },
  },
  RateLimit: {
    description: 'What is left of it: `r` requests remaining, `t` seconds until the window resets',
    schema: { type: 'string', pattern: `^${POLICY};r=[0-9]{1,9};t=[0-9]{1,2}$`, maxLength: 64, example: '"per-key";r=5999;t=42' },
  },
};

const WWW_AUTHENTICATE: ApiHeader = {
  description: `The bearer challenge: \`Bearer realm="${AUTH_REALM}"\`, with \`error="invalid_token"\` or \`error="invalid_request"\` when a credential was sent`,
  schema: {
    type: 'string',
    pattern: `^Bearer realm="${AUTH_REALM}"(, error="invalid_(request|token)")?$`,
    maxLength: 64,
    example: `Bearer realm="${AUTH_REALM}", error="invalid_token"`,
  },
};

const RATE_LIMITED_RETRY_AFTER: ApiHeader = {
  description: 'Seconds until the rate-limit window resets',
  schema: { type: 'integer', format: 'int32', minimum: 1, maximum: RATE_LIMIT_WINDOW_SECONDS, example: 42 },
};

/** Documents an Error answer of an authenticated operation: its own headers, then the RateLimit fields every answer carries. */
export function ApiAuthenticatedErrorResponse(
  status: number,
  description: string,
  code: string,
  message: string,
  headers: ApiHeaders = {},
) {
  return ApiErrorResponse(status, description, code, message, { ...headers, ...RATE_LIMIT_HEADERS });
}

/** Documents 401, 429, 500 and 503, which every authenticated operation can answer; `serverErrors`: its feature's words on 500 and 503. */
export function ApiAuthenticatedCommonResponses(serverErrors: ServerErrorDocs = {}) {
  return applyDecorators(
    ApiAuthenticatedErrorResponse(
      401,
      'API key missing or invalid, or more than one Authorization header',
      HttpErrorCode.Unauthorized,
      'Invalid API key',
      {
        'WWW-Authenticate': WWW_AUTHENTICATE,
      },
    ),
    ApiAuthenticatedErrorResponse(
      429,
      "Too many requests: the key's rate limit, or the client address's allowance of failed authentications, is used up until the window resets",
      HttpErrorCode.RateLimited,
      'Rate limit exceeded; retry in 42 s',
      { 'Retry-After': RATE_LIMITED_RETRY_AFTER },
    ),
    ApiServerErrorResponses(RATE_LIMIT_HEADERS, serverErrors),
  );
}
