import { Body, Controller, Get, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import { RouteConfig, RouteSchema } from '@nestjs/platform-fastify';
import {
  ApiBearerAuth,
  ApiBadRequestResponse,
  ApiCreatedResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiQuery,
  ApiTags,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import { ErrorBody, type RouteHeadersConfig, validationFailed } from '@petstore/core';
import { PET_PAGE_DEFAULT_LIMIT, PET_PAGE_MAX_LIMIT, PET_PAGE_MIN_LIMIT, PET_STATUSES, parseInt64, type Pet } from '@petstore/domain';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CreatePetDto } from './dto/create-pet.dto';
import { PetDto } from './dto/pet.dto';
import { AFTER_MESSAGE, LIST_PETS_QUERY_SCHEMA, PET_LIST_SCHEMA, PET_SCHEMA, type ListPetsQuery } from './pet.schemas';
import { JsonBodyValidationPipe, ParsePositiveInt64Pipe } from './pipes';
import { PetsService } from './pets.service';

/** getPet is deprecated (RFC 9745) and removed on its sunset date (RFC 8594); its successor is the filtered list. */
const GET_PET_DEPRECATION: RouteHeadersConfig = {
  responseHeaders: {
    deprecation: '@1922659200',
    sunset: 'Thu, 05 Dec 2030 00:00:00 GMT',
    link: '</v1/pets>; rel="successor-version"',
  },
};

/** The keyset cursor; the schema checked its form, this checks the int64 range. */
function afterOf(query: ListPetsQuery): bigint | undefined {
  if (query.after === undefined) return undefined;
  const after = parseInt64(query.after);
  if (after === undefined) throw validationFailed(AFTER_MESSAGE);
  return after;
}

@ApiTags('pets')
@ApiBearerAuth()
@ApiUnauthorizedResponse({ type: ErrorBody, description: 'API key missing or invalid' })
@Controller('pets')
export class PetsController {
  constructor(private readonly pets: PetsService) {}

  @Get()
  @RouteSchema({ querystring: LIST_PETS_QUERY_SCHEMA, response: { 200: PET_LIST_SCHEMA } })
  @ApiOperation({ operationId: 'listPets', summary: 'List all animals', description: 'Pets in ascending id order.' })
  @ApiQuery({ name: 'limit', required: false, type: 'integer', minimum: PET_PAGE_MIN_LIMIT, maximum: PET_PAGE_MAX_LIMIT, example: PET_PAGE_DEFAULT_LIMIT })
  @ApiQuery({ name: 'status', required: false, enum: PET_STATUSES, enumName: 'PetStatus' })
  @ApiOkResponse({ type: [PetDto], description: 'A paginated list of animals' })
  @ApiBadRequestResponse({ type: ErrorBody, description: 'A query parameter is invalid' })
  async list(@Query() query: ListPetsQuery, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<Pet[]> {
    const limit = Number(query.limit);
    const pets = await this.pets.list({ limit, status: query.status, after: afterOf(query) });
    if (pets.length === limit) {
      // A full page may have a successor: point at it (RFC 8288), keeping the filter.
      const status = query.status ? `&status=${query.status}` : '';
      void reply.header('link', `<${request.routeOptions.url}?limit=${limit}${status}&after=${pets[limit - 1].id}>; rel="next"`);
    }
    return pets;
  }

  @Post()
  @HttpCode(201)
  @RouteSchema({ response: { 201: PET_SCHEMA } })
  @ApiOperation({ operationId: 'createPet', summary: 'Add an animal' })
  @ApiCreatedResponse({ type: PetDto, description: 'Animal added; body carries the assigned id' })
  @ApiBadRequestResponse({ type: ErrorBody, description: 'Body lacks required fields or contains invalid values' })
  async create(
    @Body(JsonBodyValidationPipe) body: CreatePetDto,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Pet> {
    const pet = await this.pets.create(body);
    void reply.header('location', `${request.routeOptions.url}/${pet.id}`);
    return pet;
  }

  @Get(':petId')
  @RouteConfig(GET_PET_DEPRECATION)
  @RouteSchema({ response: { 200: PET_SCHEMA } })
  @ApiOperation({ operationId: 'getPet', summary: 'Get an animal', deprecated: true })
  @ApiParam({ name: 'petId', type: 'integer', format: 'int64', description: 'Identifier of the animal' })
  @ApiOkResponse({ type: PetDto, description: 'The animal exists' })
  @ApiNotFoundResponse({ type: ErrorBody, description: 'The animal could not be found' })
  get(@Param('petId', ParsePositiveInt64Pipe) petId: bigint): Promise<Pet> {
    return this.pets.get(petId);
  }
}
