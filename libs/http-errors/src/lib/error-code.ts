/**
 * The codes of the protocol: those an Error answer gets for its status alone (from Node, Fastify,
 * a plugin or the router) or for a request the HTTP layer refuses by its form. A feature brings
 * codes of its own (its domain errors' `code`, or its ApiException's) and declares them with
 * ApiErrorCodes; the document's ErrorCode schema lists these and those (errorCodesOf).
 */
export enum HttpErrorCode {
  Unauthorized = 'UNAUTHORIZED',
  Forbidden = 'FORBIDDEN',
  ValidationFailed = 'VALIDATION_FAILED',
  MalformedJson = 'MALFORMED_JSON',
  UnsupportedCharset = 'UNSUPPORTED_CHARSET',
  UnsupportedMediaType = 'UNSUPPORTED_MEDIA_TYPE',
  PayloadTooLarge = 'PAYLOAD_TOO_LARGE',
  UriTooLong = 'URI_TOO_LONG',
  HeadersTooLarge = 'HEADERS_TOO_LARGE',
  RequestTimeout = 'REQUEST_TIMEOUT',
  ExpectationFailed = 'EXPECTATION_FAILED',
  RouteNotFound = 'ROUTE_NOT_FOUND',
  MethodNotAllowed = 'METHOD_NOT_ALLOWED',
  RateLimited = 'RATE_LIMITED',
  BadRequest = 'BAD_REQUEST',
  ServiceUnavailable = 'SERVICE_UNAVAILABLE',
  InternalError = 'INTERNAL_ERROR',
}
