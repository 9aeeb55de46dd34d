import { BadRequestException, HttpException, NotFoundException } from '@nestjs/common';
import { DomainError } from '@petstore/domain';
import { errorCodes } from 'fastify';
import { ApiException } from './api.exception';
import { ERROR_MESSAGE_MAX_LENGTH } from './error-body.dto';
import { HttpErrorCode } from './error-code';
import { toErrorResponse } from './error-response';

/** Domain errors of some feature: the mapping knows them by their code and kind alone. */
class ThingNotFoundError extends DomainError {
  readonly code = 'THING_NOT_FOUND';
  readonly kind = 'not-found';
}
class ThingStoreUnavailableError extends DomainError {
  readonly code = 'SERVICE_UNAVAILABLE';
  readonly kind = 'unavailable';
}
class ThingWriteLostError extends DomainError {
  readonly code = 'THING_WRITE_LOST';
  readonly kind = 'outcome-unknown';
}

describe('toErrorResponse', () => {
  it('keeps the code, status, message and headers of an ApiException', () => {
    const exception = new ApiException(HttpErrorCode.MethodNotAllowed, 405, 'Method not allowed; /things allows GET, POST', {
      allow: 'GET, POST',
    });

    expect(toErrorResponse(exception)).toEqual({
      status: 405,
      body: { code: 'METHOD_NOT_ALLOWED', message: 'Method not allowed; /things allows GET, POST', status: 405 },
      headers: { allow: 'GET, POST' },
    });
  });

  it("answers a not-found domain error with 404 and the error's own code and message", () => {
    expect(toErrorResponse(new ThingNotFoundError('No thing with id 42'))).toEqual({
      status: 404,
      body: { code: 'THING_NOT_FOUND', message: 'No thing with id 42', status: 404 },
      headers: {},
    });
  });

  it('answers an unavailable domain error with 503 and a Retry-After header', () => {
    const error = new ThingStoreUnavailableError('The store is temporarily unavailable', {
      cause: new Error('ECONNREFUSED 10.0.0.1:5432'),
    });
    const response = toErrorResponse(error);

    expect(response.status).toBe(503);
    expect(response.body.code).toBe('SERVICE_UNAVAILABLE');
    expect(response.body.message).toBe('The store is temporarily unavailable');
    expect(response.headers).toEqual({ 'retry-after': '5' });
  });

  it('answers an outcome-unknown domain error with 500 and its own code, not 503: something may have been done', () => {
    expect(toErrorResponse(new ThingWriteLostError('The write may have been done')).body).toEqual({
      code: 'THING_WRITE_LOST',
      message: 'The write may have been done',
      status: 500,
    });
  });

  it("turns Nest's 'Cannot GET /x' into 404 ROUTE_NOT_FOUND without echoing the path", () => {
    expect(toErrorResponse(new NotFoundException('Cannot GET /x')).body).toEqual({
      code: 'ROUTE_NOT_FOUND',
      message: 'No route for this method and path',
      status: 404,
    });
  });

  it('answers 415 UNSUPPORTED_MEDIA_TYPE for an HttpException caused by a wrong Content-Type', () => {
    const cause = new errorCodes.FST_ERR_CTP_INVALID_MEDIA_TYPE('text/plain');
    const response = toErrorResponse(new HttpException('Unsupported Media Type', 415, { cause }));

    expect(response.status).toBe(415);
    expect(response.body).toEqual({ code: 'UNSUPPORTED_MEDIA_TYPE', message: 'Content-Type must be application/json', status: 415 });
  });

  it('answers 413 PAYLOAD_TOO_LARGE for an HttpException caused by a too large body', () => {
    const cause = new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE();
    const response = toErrorResponse(new HttpException('Payload Too Large', 413, { cause }));

    expect(response.status).toBe(413);
    expect(response.body).toEqual({ code: 'PAYLOAD_TOO_LARGE', message: 'Request body is too large', status: 413 });
  });

  it("names the route's body limit in a 413 when the request that failed is known", () => {
    const cause = new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE();
    const response = toErrorResponse(new HttpException('Payload Too Large', 413, { cause }), { routeOptions: { bodyLimit: 1024 } });
    expect(response.body).toEqual({ code: 'PAYLOAD_TOO_LARGE', message: expect.stringContaining('1024 bytes'), status: 413 });
  });

  it('maps a Fastify error that reaches it unwrapped by its code', () => {
    const response = toErrorResponse(new errorCodes.FST_ERR_CTP_INVALID_MEDIA_TYPE('text/plain'));

    expect(response.status).toBe(415);
    expect(response.body.code).toBe('UNSUPPORTED_MEDIA_TYPE');
  });

  it('answers 400 VALIDATION_FAILED with the schema message of a query validation error', () => {
    const error = Object.assign(new Error('querystring/limit limit must be an integer from 1 to 100'), {
      statusCode: 400,
      validationContext: 'querystring',
      validation: [{ keyword: 'errorMessage', instancePath: '/limit', message: 'limit must be an integer from 1 to 100' }],
    });

    expect(toErrorResponse(error)).toEqual({
      status: 400,
      body: { code: 'VALIDATION_FAILED', message: 'limit must be an integer from 1 to 100', status: 400 },
      headers: {},
    });
  });

  it('names the field of a validation error that carries no schema message', () => {
    const error = Object.assign(new Error('bad'), {
      statusCode: 400,
      validationContext: 'querystring',
      validation: [{ keyword: 'type', instancePath: '/limit', message: 'must be string' }],
    });

    expect(toErrorResponse(error).body.message).toBe('querystring limit must be string');
  });

  it('hides the detail of an unknown error behind 500 INTERNAL_ERROR', () => {
    const response = toErrorResponse(new Error('secret SQL detail'));

    expect(response.status).toBe(500);
    expect(response.body.code).toBe('INTERNAL_ERROR');
    expect(response.body.message).not.toContain('secret SQL detail');
    expect(response.headers).toEqual({});
  });

  it('hides the detail of a 5xx HttpException', () => {
    const response = toErrorResponse(new HttpException('secret SQL detail', 502));

    expect(response.body.code).toBe('INTERNAL_ERROR');
    expect(response.body.message).not.toContain('secret');
  });

  it.each([null, undefined, 'a string', 42, { statusCode: 400 }])('answers 500 INTERNAL_ERROR for the non-error %p', (thrown) => {
    expect(toErrorResponse(thrown).body.code).toBe('INTERNAL_ERROR');
  });

  it('answers 400 BAD_REQUEST for a plain Nest BadRequestException', () => {
    expect(toErrorResponse(new BadRequestException('Bad thing')).body).toEqual({ code: 'BAD_REQUEST', message: 'Bad thing', status: 400 });
  });

  it.each([
    new ApiException(HttpErrorCode.ValidationFailed, 400, 'name is required'),
    new ThingNotFoundError('No thing'),
    new ThingStoreUnavailableError('Unavailable'),
    new NotFoundException('Cannot GET /x'),
    new HttpException('Too Many Requests', 429),
    new HttpException('Payload Too Large', 413, { cause: new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE() }),
    new HttpException('Gateway', 504),
    new Error('boom'),
  ])('puts the answer status in the body (%p)', (exception) => {
    const response = toErrorResponse(exception);
    expect(response.body.status).toBe(response.status);
  });

  it('cuts a message that quotes long client input to ERROR_MESSAGE_MAX_LENGTH characters', () => {
    const { body } = toErrorResponse(
      new ApiException(HttpErrorCode.ValidationFailed, 400, `property ${'x'.repeat(5000)} should not exist`),
    );
    expect(body.message).toHaveLength(ERROR_MESSAGE_MAX_LENGTH);
    expect(body.message.endsWith('…')).toBe(true);
  });
});
