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
  description: 'The bearer challenge: `Bearer realm="petstore"`, with `error="invalid_token"` or `error="invalid_request"` when a credential was sent',
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

/** The error answers every operation can give, whatever it does. */
const COMMON: Readonly<Record<number, { description: string; code: ErrorCode; message: string; headers?: Record<string, ApiHeader> }>> = {
  401: { description: 'API key missing or invalid', code: ErrorCode.Unauthorized, message: 'Invalid API key', headers: { 'WWW-Authenticate': WWW_AUTHENTICATE } },
  500: { description: 'Unexpected failure; details are logged with the request id, never returned', code: ErrorCode.InternalError, message: 'Internal server error' },
  503: {
    description: 'The database is unreachable; retry later',
    code: ErrorCode.ServiceUnavailable,
    message: 'The pet store is temporarily unavailable',
    headers: { 'Retry-After': RETRY_AFTER },
  },
};

/** Documents one Error answer of an operation, with an example body. */
export function ApiErrorResponse(status: number, description: string, code: ErrorCode, message: string, headers?: Record<string, ApiHeader>) {
  return ApiResponse({ status, description, type: ErrorBody, example: { code, message, status }, headers });
}

/** Documents 401, 500 and 503, which every authenticated operation can answer. */
export function ApiCommonErrorResponses() {
  return applyDecorators(
    ...Object.entries(COMMON).map(([status, { description, code, message, headers }]) =>
      ApiErrorResponse(Number(status), description, code, message, headers),
    ),
  );
}
