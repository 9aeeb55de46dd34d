import { HttpException, NotFoundException } from '@nestjs/common';
import { STATUS_CODES } from 'node:http';
import { DomainError, type DomainErrorKind } from '@petstore/domain';
import { ApiException } from './api.exception';
import { ERROR_MESSAGE_MAX_LENGTH } from './error-body.dto';
import { HttpErrorCode } from './error-code';

/** A complete error answer: status line, Error body and extra headers. */
export interface ErrorResponse {
  readonly status: number;
  readonly body: { readonly code: string; readonly message: string; readonly status: number };
  readonly headers: Readonly<Record<string, string>>;
}

/** Seconds a client is asked to wait before retrying while the database is unreachable. */
export const STORE_UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

/** The code of an error answer known only by its status (from Node, Fastify or a plugin). */
const CODE_BY_STATUS: Readonly<Record<number, HttpErrorCode>> = {
  400: HttpErrorCode.BadRequest,
  401: HttpErrorCode.Unauthorized,
  403: HttpErrorCode.Forbidden,
  404: HttpErrorCode.RouteNotFound,
  405: HttpErrorCode.MethodNotAllowed,
  408: HttpErrorCode.RequestTimeout,
  413: HttpErrorCode.PayloadTooLarge,
  414: HttpErrorCode.UriTooLong,
  415: HttpErrorCode.UnsupportedMediaType,
  417: HttpErrorCode.ExpectationFailed,
  429: HttpErrorCode.RateLimited,
  431: HttpErrorCode.HeadersTooLarge,
  503: HttpErrorCode.ServiceUnavailable,
};

/** The fitting code for an error status: its own where it has one, else the generic one of its class. */
export function errorCodeFor(status: number): HttpErrorCode {
  return CODE_BY_STATUS[status] ?? (status >= 500 ? HttpErrorCode.InternalError : HttpErrorCode.BadRequest);
}

/** Node's reason phrase for a status: the message of an error answer known only by its status. */
export function reasonPhraseOf(status: number): string {
  return STATUS_CODES[status] ?? 'Error';
}

/** The Error answer for a status, with Node's reason phrase as its message when none is given. */
export function errorResponseFor(status: number, message = reasonPhraseOf(status)): ErrorResponse {
  return errorAnswer(status, errorCodeFor(status), message);
}

/** How each kind of domain error is answered, whatever its feature; the error itself brings its code and message. */
const DOMAIN_ERROR_ANSWERS: Readonly<Record<DomainErrorKind, { status: number; headers?: Record<string, string> }>> = {
  'not-found': { status: 404 },
  unavailable: { status: 503, headers: { 'retry-after': String(STORE_UNAVAILABLE_RETRY_AFTER_SECONDS) } },
  // Not 503, which promises that nothing was done (docs/contract.md, "Safe retries").
  'outcome-unknown': { status: 500 },
};

interface FastifyErrorAnswer {
  readonly code: HttpErrorCode;
  readonly message: string | ((request?: FailedRequest) => string);
}

const FASTIFY_ERRORS: Readonly<Record<string, FastifyErrorAnswer>> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { code: HttpErrorCode.UnsupportedMediaType, message: 'Content-Type must be application/json' },
  FST_ERR_CTP_BODY_TOO_LARGE: {
    code: HttpErrorCode.PayloadTooLarge,
    message: (request) => {
      const limit = request?.routeOptions?.bodyLimit;
      return limit === undefined ? 'Request body is too large' : bodyTooLargeMessage(limit);
    },
  },
  FST_ERR_CTP_EMPTY_JSON_BODY: { code: HttpErrorCode.MalformedJson, message: 'Request body is empty; expected a JSON object' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { code: HttpErrorCode.BadRequest, message: 'Content-Length does not match the request body' },
  FST_ERR_BAD_URL: { code: HttpErrorCode.BadRequest, message: 'Request URL is malformed' },
  FST_ERR_MAX_PARAM_LENGTH: { code: HttpErrorCode.UriTooLong, message: 'A path segment of the request URL is too long' },
};

/** An ajv error as Fastify hands it over; ajv-errors' own keeps the errors it stands for in `params.errors`. */
interface ValidationError {
  readonly keyword: string;
  readonly instancePath: string;
  readonly message?: string;
  readonly params?: { readonly additionalProperty?: string; readonly errors?: readonly ValidationError[] };
}

interface FastifyLikeError {
  readonly code?: unknown;
  readonly statusCode?: unknown;
  readonly validation?: readonly ValidationError[];
  readonly validationContext?: string;
}

/** The 413's message: a client learns the limit it crossed, from the answer alone. */
export function bodyTooLargeMessage(limitBytes: number): string {
  return `Request body exceeds the limit of ${limitBytes} bytes`;
}

/** What the request that failed tells about the answer: its route's body limit. */
export interface FailedRequest {
  readonly routeOptions?: { readonly bodyLimit?: number };
}

/** Maps anything thrown while answering a request to the Error answer a client gets. */
export function toErrorResponse(exception: unknown, request?: FailedRequest): ErrorResponse {
  if (exception instanceof ApiException) {
    return errorAnswer(exception.getStatus(), exception.code, exception.message, exception.headers);
  }
  if (exception instanceof DomainError) {
    const { status, headers } = DOMAIN_ERROR_ANSWERS[exception.kind];
    return errorAnswer(status, exception.code, exception.message, headers);
  }
  if (exception instanceof HttpException) {
    return fromHttpException(exception, exception.getStatus(), exception.cause as FastifyLikeError | undefined, request);
  }
  // Fastify's schema validation errors reach the filter as they are, with a statusCode.
  const status = (exception as FastifyLikeError | undefined)?.statusCode;
  if (exception instanceof Error && typeof status === 'number' && status >= 400 && status < 500) {
    return fromHttpException(exception, status, exception as FastifyLikeError, request);
  }
  return errorAnswer(500, HttpErrorCode.InternalError, 'Internal server error');
}

function fromHttpException(exception: Error, status: number, cause: FastifyLikeError | undefined, request?: FailedRequest): ErrorResponse {
  if (status >= 500) return errorAnswer(status, HttpErrorCode.InternalError, 'Internal server error');
  if (cause?.validation?.length) {
    return errorAnswer(400, HttpErrorCode.ValidationFailed, validationMessages(cause.validation, cause.validationContext));
  }
  const known = typeof cause?.code === 'string' ? FASTIFY_ERRORS[cause.code] : undefined;
  if (known) return errorAnswer(status, known.code, typeof known.message === 'string' ? known.message : known.message(request));
  if (exception instanceof NotFoundException) {
    // Nest's says "Cannot GET /path": the path is the client's input, not echoed.
    return errorAnswer(404, HttpErrorCode.RouteNotFound, 'No route for this method and path');
  }
  return errorAnswer(status, errorCodeFor(status), exception.message);
}

/** Every problem, each once; a value of the wrong type (a repeated parameter is a list) is told only that. */
function validationMessages(errors: readonly ValidationError[], context?: string): string {
  const isType = (error: ValidationError) => (error.params?.errors ?? [error]).some(({ keyword }) => keyword === 'type');
  const mistyped = new Set(errors.filter(isType).map((error) => error.instancePath));
  const shown = errors.filter((error) => isType(error) || !mistyped.has(error.instancePath));
  return [...new Set(shown.map((error) => validationMessage(error, context)))].join('; ');
}

function validationMessage(error: ValidationError, context = 'request'): string {
  // An unknown property is named, since the schema's own message cannot say which one it was.
  const unknown = (error.params?.errors ?? [error]).flatMap(({ params }) => params?.additionalProperty ?? []);
  if (unknown.length > 0) {
    const [one, many] =
      context === 'querystring' ? ['query parameter', 'query parameters'] : [`${context} property`, `${context} properties`];
    return `Unknown ${unknown.length > 1 ? many : one} ${unknown.join(', ')}${error.message ? `: ${error.message}` : ''}`;
  }
  // Schemas carry an `errorMessage` that names the field; other failures get a generic sentence.
  if (error.keyword === 'errorMessage' && error.message) return error.message;
  const field = error.instancePath.replace(/^\//, '').replaceAll('/', '.');
  return `${context}${field ? ` ${field}` : ''} ${error.message ?? 'is invalid'}`;
}

// Every Error answer is made here, its message bounded (it may quote client input); whatever sends it counts it.
function errorAnswer(status: number, code: string, message: string, headers: Readonly<Record<string, string>> = {}): ErrorResponse {
  const bounded = message.length > ERROR_MESSAGE_MAX_LENGTH ? `${message.slice(0, ERROR_MESSAGE_MAX_LENGTH - 1)}…` : message;
  return { status, body: { code, message: bounded, status }, headers };
}
