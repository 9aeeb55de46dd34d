import { applyDecorators } from '@nestjs/common';
import { ApiResponse } from '@nestjs/swagger';
import { ErrorBody } from './error-body.dto';
import { ErrorCode } from './error-code';
import { STORE_UNAVAILABLE_RETRY_AFTER_SECONDS } from './error-response';

/** An OpenAPI response header. */
export interface ApiHeader {
  readonly description: string;
  readonly schema: Readonly<Record<string, unknown>>;
}

const WWW_AUTHENTICATE: ApiHeader = {
  description:
    'The bearer challenge: `Bearer realm="petstore"`, with `error="invalid_token"` or `error="invalid_request"` when a credential was sent',
  schema: {
    type: 'string',
    pattern: '^Bearer realm="petstore"(, error="invalid_(request|token)")?$',
    maxLength: 64,
    example: 'Bearer realm="petstore", error="invalid_token"',
  },
};
const RETRY_AFTER: ApiHeader = {
  description: 'Seconds to wait before retrying',
  schema: { type: 'integer', format: 'int32', minimum: 1, maximum: 3600, example: STORE_UNAVAILABLE_RETRY_AFTER_SECONDS },
};

/** Every rate limit counts in fixed windows of this many seconds: the longest wait a 429 asks for. */
export const RATE_LIMIT_WINDOW_SECONDS = 60;
/** The names of the rate-limit policies, as the RateLimit header fields give them. */
export const RATE_LIMIT_POLICIES = { perKey: 'per-key', authFailures: 'auth-failures' } as const;
const RATE_LIMITED_RETRY_AFTER: ApiHeader = {
  description: 'Seconds until the rate-limit window resets',
  schema: { type: 'integer', format: 'int32', minimum: 1, maximum: RATE_LIMIT_WINDOW_SECONDS, example: 42 },
};
const POLICY = `"(${Object.values(RATE_LIMIT_POLICIES).join('|')})"`;

/**
 * The IETF RateLimit header fields (draft-ietf-httpapi-ratelimit-headers), on every answer of an
 * operation: the per-key policy once the key is accepted, the client address's failed
 * authentications policy on a 401 (and on the 429 that follows too many of them).
 */
export const RATE_LIMIT_HEADERS: Readonly<Record<string, ApiHeader>> = {
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

/** The error answers every operation can give, whatever it does. */
const COMMON: Readonly<Record<number, { description: string; code: ErrorCode; message: string; headers?: Record<string, ApiHeader> }>> = {
  401: {
    description: 'API key missing or invalid',
    code: ErrorCode.Unauthorized,
    message: 'Invalid API key',
    headers: { 'WWW-Authenticate': WWW_AUTHENTICATE },
  },
  429: {
    description:
      "Too many requests: the key's rate limit, or the client address's allowance of failed authentications, is used up until the window resets",
    code: ErrorCode.RateLimited,
    message: 'Rate limit exceeded; retry in 42 s',
    headers: { 'Retry-After': RATE_LIMITED_RETRY_AFTER },
  },
  500: {
    description: 'Unexpected failure; details are logged with the request id, never returned',
    code: ErrorCode.InternalError,
    message: 'Internal server error',
  },
  503: {
    description: 'The database is unreachable; retry later',
    code: ErrorCode.ServiceUnavailable,
    message: 'The pet store is temporarily unavailable',
    headers: { 'Retry-After': RETRY_AFTER },
  },
};

/** Documents one Error answer of an operation, with an example body and the rate-limit headers. */
export function ApiErrorResponse(
  status: number,
  description: string,
  code: ErrorCode,
  message: string,
  headers?: Record<string, ApiHeader>,
) {
  return ApiResponse({
    status,
    description,
    type: ErrorBody,
    example: { code, message, status },
    headers: { ...headers, ...RATE_LIMIT_HEADERS },
  });
}

/** Documents 401, 429, 500 and 503, which every authenticated operation can answer. */
export function ApiCommonErrorResponses() {
  return applyDecorators(
    ...Object.entries(COMMON).map(([status, { description, code, message, headers }]) =>
      ApiErrorResponse(Number(status), description, code, message, headers),
    ),
  );
}
