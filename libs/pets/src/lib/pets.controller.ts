import { Body, Controller, Get, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import { RouteConfig, RouteSchema } from '@nestjs/platform-fastify';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { type RouteHeadersConfig, validationFailed } from '@petstore/core';
import { parseInt64, type Pet } from '@petstore/domain';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CreatePetDto } from './dto/create-pet.dto';
import { AFTER_MESSAGE, LIST_PETS_QUERY_SCHEMA, PET_LIST_SCHEMA, PET_SCHEMA, type ListPetsQuery } from './pet.schemas';
import { JsonBodyValidationPipe, ParseInt64Pipe } from './pipes';
import { ApiCreatePet, ApiGetPet, ApiListPets, GET_PET_DEPRECATION_HEADERS } from './pets.api-docs';
import { PetsService } from './pets.service';

/** Every answer of getPet, errors included, carries its deprecation headers. */
const GET_PET_DEPRECATION: RouteHeadersConfig = { responseHeaders: GET_PET_DEPRECATION_HEADERS };

/** The keyset cursor; the schema checked its form, this checks the int64 range. */
function afterOf(query: ListPetsQuery): bigint | undefined {
  if (query.after === undefined) return undefined;
  const after = parseInt64(query.after);
  if (after === undefined) throw validationFailed(AFTER_MESSAGE);
  return after;
}

@ApiTags('pets')
@ApiBearerAuth('bearer')
@Controller('pets')
export class PetsController {
  constructor(private readonly pets: PetsService) {}

  @Get()
  @RouteSchema({ querystring: LIST_PETS_QUERY_SCHEMA, response: { 200: PET_LIST_SCHEMA } })
  @ApiListPets()
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
  @ApiCreatePet()
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
  @ApiGetPet()
  get(@Param('petId', ParseInt64Pipe) petId: bigint): Promise<Pet> {
    return this.pets.get(petId);
  }
}
