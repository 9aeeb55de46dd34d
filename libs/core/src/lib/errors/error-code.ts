/** Every value the `code` field of an Error body can take. */
export enum ErrorCode {
  Unauthorized = 'UNAUTHORIZED',
  ValidationFailed = 'VALIDATION_FAILED',
  MalformedJson = 'MALFORMED_JSON',
  UnsupportedMediaType = 'UNSUPPORTED_MEDIA_TYPE',
  PayloadTooLarge = 'PAYLOAD_TOO_LARGE',
  PetNotFound = 'PET_NOT_FOUND',
  RouteNotFound = 'ROUTE_NOT_FOUND',
  MethodNotAllowed = 'METHOD_NOT_ALLOWED',
  RateLimited = 'RATE_LIMITED',
  BadRequest = 'BAD_REQUEST',
  ServiceUnavailable = 'SERVICE_UNAVAILABLE',
  InternalError = 'INTERNAL_ERROR',
}
