import { applyDecorators } from '@nestjs/common';
import { ApiBody, ApiExtraModels, ApiOperation, ApiResponse, getSchemaPath } from '@nestjs/swagger';
import { ApiAuthenticatedCommonResponses, ApiAuthenticatedErrorResponse, RATE_LIMIT_HEADERS } from '@petstore/auth';
import { PET_PAGE_MAX_LIMIT, StoreUnavailableError } from '@petstore/domain';
import { ApiConditionalGet, BODY_LIMIT_BYTES, JSON_MAX_DEPTH, RouteHeaders } from '@petstore/http';
import { type ApiHeader, bodyTooLargeMessage, HttpErrorCode, type ServerErrorDocs } from '@petstore/http-errors';
import { CreatePetDto } from './dto/create-pet.dto';
import { PetDto } from './dto/pet.dto';
import { PetsErrorCode } from './pets.error-codes';

const constant = (value: string): ApiHeader['schema'] => ({ type: 'string', enum: [value], example: value });
const matching = (pattern: string, example: string): ApiHeader['schema'] => ({ type: 'string', pattern, maxLength: 512, example });

/** getPet has been deprecated since the service's first release; the specification removes it on 5 December 2030. */
const GET_PET_DEPRECATED_AT = new Date('2026-11-23T00:00:00Z');
const GET_PET_SUNSET_AT = new Date('2030-12-05T00:00:00Z');

/** Deprecation (RFC 9745) is a past Unix time (a future one would mean "not yet"); Sunset (RFC 8594) the removal. */
export const GET_PET_DEPRECATION_HEADERS = {
  deprecation: `@${GET_PET_DEPRECATED_AT.getTime() / 1000}`,
  sunset: GET_PET_SUNSET_AT.toUTCString(),
  link: '</v1/pets>; rel="successor-version"',
} as const;

const DEPRECATION_HEADERS: Record<string, ApiHeader> = {
  Deprecation: {
    description: 'The operation has been deprecated since this moment, a Unix time (RFC 9745)',
    schema: constant(GET_PET_DEPRECATION_HEADERS.deprecation),
  },
  Sunset: { description: 'The operation is removed on this date (RFC 8594)', schema: constant(GET_PET_DEPRECATION_HEADERS.sunset) },
  Link: { description: 'The replacement: the pet list with its status filter', schema: constant(GET_PET_DEPRECATION_HEADERS.link) },
};

/** Seconds a retry is asked to wait for the first request with its Idempotency-Key, which takes milliseconds. */
export const IDEMPOTENCY_RETRY_AFTER_SECONDS = 1;

const IDEMPOTENT_REPLAYED: ApiHeader = {
  description:
    'Present, `true`, when this answer is the stored answer to an earlier request with the same Idempotency-Key: no pet was created',
  schema: constant('true'),
};
const IDEMPOTENCY_RETRY_AFTER: ApiHeader = {
  description: 'Seconds to wait before retrying with the same Idempotency-Key',
  schema: { type: 'integer', format: 'int32', minimum: 1, maximum: 60, example: IDEMPOTENCY_RETRY_AFTER_SECONDS },
};

const SERVER_ERRORS: ServerErrorDocs = {
  internalErrorNote:
    `\`${PetsErrorCode.WriteOutcomeUnknown}\`: the database connection was lost after a write was sent, so it may or may not have been done; ` +
    'a retry with the same `Idempotency-Key` gets the one outcome',
  unavailableMessage: new StoreUnavailableError().message,
};

/** listPets: its document, and its policy: a conditional GET. */
export function ApiListPets() {
  return applyDecorators(
    ApiExtraModels(PetDto),
    ApiOperation({
      operationId: 'listPets',
      summary: 'List all animals',
      description:
        'Lists animals in ascending id order, with a page-size limit and an optional availability filter. ' +
        'A full page carries a `Link` header to the next one (`after` = the last id of this page). ' +
        "A page's `ETag` changes when a pet on it changes or one is added within it: poll with `If-None-Match`.",
    }),
    ApiConditionalGet({
      description: 'A paginated list of animals',
      schema: { type: 'array', maxItems: PET_PAGE_MAX_LIMIT, items: { $ref: getSchemaPath(PetDto) } },
      headers: {
        Link: {
          description: 'The next page, present when this page is full (RFC 8288)',
          schema: matching('^</v1/pets\\?[^>]*>; rel="next"$', '</v1/pets?limit=20&after=20>; rel="next"'),
        },
        ...RATE_LIMIT_HEADERS,
      },
    }),
    ApiAuthenticatedErrorResponse(
      400,
      'A query parameter is invalid',
      HttpErrorCode.ValidationFailed,
      'limit must be an integer from 1 to 100',
    ),
    ApiAuthenticatedCommonResponses(SERVER_ERRORS),
  );
}

/** createPet: its document (its Idempotency-Key is its handler's @IdempotencyKey()'s). */
export function ApiCreatePet() {
  return applyDecorators(
    ApiOperation({
      operationId: 'createPet',
      summary: 'Add an animal',
      description: 'Adds an animal; the service assigns its id. With an `Idempotency-Key`, retries create it once.',
    }),
    ApiBody({
      type: CreatePetDto,
      required: true,
      examples: { rex: { summary: 'An available dog', value: { name: 'Rex', categoryId: 1, status: 'available' } } },
    }),
    ApiResponse({
      status: 201,
      description:
        'Animal added; body carries the assigned id. Or, with `Idempotent-Replayed`, the stored answer to an earlier request with the same Idempotency-Key',
      type: PetDto,
      headers: {
        Location: { description: 'The new animal', schema: matching('^/v1/pets/[1-9][0-9]{0,18}$', '/v1/pets/1') },
        'Idempotent-Replayed': IDEMPOTENT_REPLAYED,
        ...RATE_LIMIT_HEADERS,
      },
    }),
    ApiAuthenticatedErrorResponse(
      400,
      `Body lacks required fields, contains invalid values, is not JSON, is not UTF-8 (or names another charset), or nests deeper than ${JSON_MAX_DEPTH} levels; ` +
        'or the Idempotency-Key is malformed',
      HttpErrorCode.ValidationFailed,
      'name is required',
    ),
    ApiAuthenticatedErrorResponse(
      409,
      'A request with this Idempotency-Key is being processed right now; retry after `Retry-After` seconds to get its answer',
      PetsErrorCode.IdempotencyKeyInProgress,
      `A request with this Idempotency-Key is being processed; retry in ${IDEMPOTENCY_RETRY_AFTER_SECONDS} s`,
      { 'Retry-After': IDEMPOTENCY_RETRY_AFTER },
    ),
    ApiAuthenticatedErrorResponse(
      422,
      'This Idempotency-Key was used with another request body; a new request needs a new key',
      PetsErrorCode.IdempotencyKeyReused,
      'This Idempotency-Key was used with another request body; send a new key for a new request',
    ),
    ApiAuthenticatedErrorResponse(
      413,
      `Body larger than ${BODY_LIMIT_BYTES / 1024} KiB`,
      HttpErrorCode.PayloadTooLarge,
      bodyTooLargeMessage(BODY_LIMIT_BYTES),
    ),
    ApiAuthenticatedErrorResponse(
      415,
      'Body is not application/json',
      HttpErrorCode.UnsupportedMediaType,
      'Content-Type must be application/json',
    ),
    ApiAuthenticatedCommonResponses(SERVER_ERRORS),
  );
}

/** getPet: its document, and its policy: the deprecation headers on every answer, a conditional GET. */
export function ApiGetPet() {
  return applyDecorators(
    RouteHeaders(GET_PET_DEPRECATION_HEADERS),
    ApiOperation({
      operationId: 'getPet',
      summary: 'Get an animal',
      description: `Deprecated: removed on 5 December 2030. Use \`GET /pets\` with the \`status\` filter instead.`,
      deprecated: true,
    }),
    ApiConditionalGet({
      description: 'The animal exists',
      type: PetDto,
      headers: { ...DEPRECATION_HEADERS, ...RATE_LIMIT_HEADERS },
    }),
    ApiAuthenticatedErrorResponse(
      400,
      'petId is not a 64-bit integer',
      HttpErrorCode.ValidationFailed,
      'petId must be a 64-bit integer',
      DEPRECATION_HEADERS,
    ),
    ApiAuthenticatedErrorResponse(404, 'The animal could not be found', PetsErrorCode.PetNotFound, 'No pet with id 1', DEPRECATION_HEADERS),
    ApiAuthenticatedCommonResponses(SERVER_ERRORS),
  );
}
