import { applyDecorators } from '@nestjs/common';
import { ApiBody, ApiExtraModels, ApiOperation, ApiResponse, getSchemaPath } from '@nestjs/swagger';
import { PET_PAGE_MAX_LIMIT, PetNotFoundError } from '@petstore/domain';
import { ApiConditionalGet, RouteHeaders } from '@petstore/http';
import { type ApiHeader, ApiErrorResponse, ApiRefusal } from '@petstore/http-errors';
import { CreatePetDto } from './dto/create-pet.dto';
import { PetDto } from './dto/pet.dto';
import { IDEMPOTENCY_RETRY_AFTER_SECONDS, PetsErrorCode, PetsRefusal } from './pets.error-codes';

const matching = (pattern: string, example: string): ApiHeader['schema'] => ({ type: 'string', pattern, maxLength: 512, example });

/** getPet has been deprecated since the service's first release; the specification removes it on 5 December 2030. */
const GET_PET_DEPRECATED_AT = new Date('2026-11-23T00:00:00Z');
const GET_PET_SUNSET_AT = new Date('2030-12-05T00:00:00Z');

/** Deprecation (RFC 9745) is a past Unix time (a future one would mean "not yet"); Sunset (RFC 8594) the removal. */
const DEPRECATION_HEADERS = {
  Deprecation: {
    value: `@${GET_PET_DEPRECATED_AT.getTime() / 1000}`,
    description: 'The operation has been deprecated since this moment, a Unix time (RFC 9745)',
  },
  Sunset: { value: GET_PET_SUNSET_AT.toUTCString(), description: 'The operation is removed on this date (RFC 8594)' },
  Link: { value: '</v1/pets>; rel="successor-version"', description: 'The replacement: the pet list with its status filter' },
} as const;

const IDEMPOTENT_REPLAYED: ApiHeader = {
  description:
    'Present, `true`, when this answer is the stored answer to an earlier request with the same Idempotency-Key: no pet was created',
  schema: { type: 'string', enum: ['true'], example: 'true' },
};
const IDEMPOTENCY_RETRY_AFTER: ApiHeader = {
  description: 'Seconds to wait before retrying with the same Idempotency-Key',
  schema: { type: 'integer', format: 'int32', minimum: 1, maximum: 60, example: IDEMPOTENCY_RETRY_AFTER_SECONDS },
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
      },
    }),
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
      },
    }),
    ApiRefusal(
      PetsRefusal.keyInProgress(),
      'A request with this Idempotency-Key is being processed right now; retry after `Retry-After` seconds to get its answer',
      { 'Retry-After': IDEMPOTENCY_RETRY_AFTER },
    ),
    ApiRefusal(PetsRefusal.keyReused(), 'This Idempotency-Key was used with another request body; a new request needs a new key'),
  );
}

/** getPet: its document, and its policy: the deprecation headers on every answer, a conditional GET. */
export function ApiGetPet() {
  return applyDecorators(
    RouteHeaders(DEPRECATION_HEADERS),
    ApiOperation({
      operationId: 'getPet',
      summary: 'Get an animal',
      description: `Deprecated: removed on 5 December 2030. Use \`GET /pets\` with the \`status\` filter instead.`,
      deprecated: true,
    }),
    ApiConditionalGet({ description: 'The animal exists', type: PetDto }),
    ApiErrorResponse(404, 'The animal could not be found', PetsErrorCode.PetNotFound, new PetNotFoundError(1n).message),
  );
}
