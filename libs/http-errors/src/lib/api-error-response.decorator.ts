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

/** Headers documented on an answer, by name. */
export type ApiHeaders = Readonly<Record<string, ApiHeader>>;

const RETRY_AFTER: ApiHeader = {
  description: 'Seconds to wait before retrying',
  schema: { type: 'integer', format: 'int32', minimum: 1, maximum: 3600, example: STORE_UNAVAILABLE_RETRY_AFTER_SECONDS },
};

/** Documents one Error answer of an operation, with an example body and the headers it carries. */
export function ApiErrorResponse(status: number, description: string, code: ErrorCode, message: string, headers: ApiHeaders = {}) {
  return ApiResponse({ status, description, type: ErrorBody, example: { code, message, status }, headers: { ...headers } });
}

/** Documents 500 and 503, which any operation can answer, with the headers every answer of it carries. */
export function ApiServerErrorResponses(headers: ApiHeaders = {}) {
  return applyDecorators(
    ApiErrorResponse(
      500,
      'Unexpected failure; details are logged with the request id, never returned. `WRITE_OUTCOME_UNKNOWN`: the database connection was lost after a write was sent, so it may or may not have been done; a retry with the same `Idempotency-Key` gets the one outcome',
      ErrorCode.InternalError,
      'Internal server error',
      headers,
    ),
    ApiErrorResponse(
      503,
      'The database is unreachable, refuses writes (read-only) or did not answer in time; nothing was done. Retry after `Retry-After` seconds',
      ErrorCode.ServiceUnavailable,
      'The pet store is temporarily unavailable',
      {
        'Retry-After': RETRY_AFTER,
        ...headers,
      },
    ),
  );
}
