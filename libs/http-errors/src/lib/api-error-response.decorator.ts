import { applyDecorators } from '@nestjs/common';
import { ApiResponse } from '@nestjs/swagger';
import { ErrorBody } from './error-body.dto';
import { HttpErrorCode } from './error-code';
import { reasonPhraseOf, STORE_UNAVAILABLE_RETRY_AFTER_SECONDS } from './error-response';

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

/** What an operation's 500 and 503 answers say beyond the protocol's words: the feature's own. */
export interface ServerErrorDocs {
  /** Added to the 500's description: the codes other than INTERNAL_ERROR a 500 may carry, and what each means. */
  readonly internalErrorNote?: string;
  /** The 503's example message: what the feature's unavailable error says (Node's reason phrase without one). */
  readonly unavailableMessage?: string;
}

/** Documents 500 and 503, which any operation can answer, with the headers every answer of it carries. */
export function ApiServerErrorResponses(headers: ApiHeaders = {}, { internalErrorNote, unavailableMessage }: ServerErrorDocs = {}) {
  const internalError = 'Unexpected failure; details are logged with the request id, never returned';
  return applyDecorators(
    ApiErrorResponse(
      500,
      internalErrorNote ? `${internalError}. ${internalErrorNote}` : internalError,
      HttpErrorCode.InternalError,
      'Internal server error',
      headers,
    ),
    ApiErrorResponse(
      503,
      'The database is unreachable, refuses writes (read-only) or did not answer in time; nothing was done. Retry after `Retry-After` seconds',
      HttpErrorCode.ServiceUnavailable,
      unavailableMessage ?? reasonPhraseOf(503),
      { 'Retry-After': RETRY_AFTER, ...headers },
    ),
  );
}
