import { applyDecorators } from '@nestjs/common';
import { ApiResponse } from '@nestjs/swagger';
import { StoreUnavailableError, WriteOutcomeUnknownError } from '@petstore/domain';
import type { ApiException } from './api.exception';
import { ErrorBody } from './error-body.dto';
import { HttpErrorCode } from './error-code';
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
export function ApiErrorResponse(status: number, description: string, code: string, message: string, headers: ApiHeaders = {}) {
  return ApiResponse({ status, description, type: ErrorBody, example: { code, message, status }, headers: { ...headers } });
}

/** Documents the answer `refusal` makes, its example the refusal itself, so that the document shows what the service says. */
export function ApiRefusal(refusal: ApiException, description: string, headers: ApiHeaders = {}) {
  const documented = Object.keys(headers).map((name) => name.toLowerCase());
  const undocumented = Object.keys(refusal.headers).filter((name) => !documented.includes(name.toLowerCase()));
  if (undocumented.length > 0) {
    throw new Error(
      `The ${refusal.getStatus()} ${refusal.code} refusal sends ${undocumented.join(', ')}, which its ApiRefusal does not document: ` +
        'pass it in the headers argument',
    );
  }
  return ApiErrorResponse(refusal.getStatus(), description, refusal.code, refusal.message, headers);
}

/** Documents 500 and 503, which any operation can answer; `writes`: the operation may write, so its 500 may leave the outcome unknown. */
export function ApiServerErrorResponses({ writes }: { readonly writes: boolean }) {
  const internalError = 'Unexpected failure; details are logged with the request id, never returned';
  const outcomeUnknown = `\`${WriteOutcomeUnknownError.code}\`: the database connection was lost after a write was sent, so it may or may not have been done`;
  return applyDecorators(
    ApiErrorResponse(
      500,
      writes ? `${internalError}. ${outcomeUnknown}` : internalError,
      HttpErrorCode.InternalError,
      'Internal server error',
    ),
    ApiErrorResponse(
      503,
      'The database is unreachable, refuses writes (read-only) or did not answer in time; nothing was done. Retry after `Retry-After` seconds',
      HttpErrorCode.ServiceUnavailable,
      new StoreUnavailableError().message,
      { 'Retry-After': RETRY_AFTER },
    ),
  );
}
