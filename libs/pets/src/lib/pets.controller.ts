import { Body, Get, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Principal } from '@petstore/auth';
import type { Pet } from '@petstore/domain';
import { ApiController } from '@petstore/http';
import { ApiErrorCodes, ApiException } from '@petstore/http-errors';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { createHash } from 'node:crypto';
import { CreatePetDto } from './dto/create-pet.dto';
import { IDEMPOTENCY_KEY_HEADER, idempotencyKeyOf } from './idempotency-key.header';
import { ListPetsQueryDto } from './dto/list-pets-query.dto';
import { PetPathDto } from './dto/pet-path.dto';
import { ApiCreatePet, ApiGetPet, ApiListPets, IDEMPOTENCY_RETRY_AFTER_SECONDS } from './pets.api-docs';
import { PetsErrorCode } from './pets.error-codes';
import { PetsService } from './pets.service';

function keyInProgress(): ApiException {
  return new ApiException(
    PetsErrorCode.IdempotencyKeyInProgress,
    409,
    `A request with this Idempotency-Key is being processed; retry in ${IDEMPOTENCY_RETRY_AFTER_SECONDS} s`,
    { 'retry-after': String(IDEMPOTENCY_RETRY_AFTER_SECONDS) },
  );
}

function keyReused(): ApiException {
  return new ApiException(
    PetsErrorCode.IdempotencyKeyReused,
    422,
    'This Idempotency-Key was used with another request body; send a new key for a new request',
  );
}

/** The API key that sent a request: authentication ran before any handler that is not Public. */
function principalOf(request: FastifyRequest): Principal {
  const principal = request.principal;
  if (!principal) throw new Error('An authenticated route was reached without a principal');
  return principal;
}

@ApiTags('pets')
@ApiErrorCodes(Object.values(PetsErrorCode))
@ApiController('pets')
export class PetsController {
  constructor(private readonly pets: PetsService) {}

  @Get()
  @ApiListPets()
  async list(
    @Query() { limit, status, after }: ListPetsQueryDto,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Pet[]> {
    const pets = await this.pets.list({ limit, status, after });
    if (pets.length === limit) {
      // A full page may have a successor: point at it (RFC 8288), keeping the filter.
      const filter = status ? `&status=${status}` : '';
      void reply.header('link', `<${request.routeOptions.url}?limit=${limit}${filter}&after=${pets[limit - 1].id}>; rel="next"`);
    }
    return pets;
  }

  @Post()
  @HttpCode(201)
  @ApiCreatePet()
  async create(@Body() body: CreatePetDto, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<Pet> {
    const idempotencyKey = idempotencyKeyOf(request.headers[IDEMPOTENCY_KEY_HEADER]);
    const pet = idempotencyKey === undefined ? await this.pets.create(body) : await this.createOnce(idempotencyKey, body, request, reply);
    void reply.header('location', `${request.routeOptions.url}/${pet.id}`);
    return pet;
  }

  /** A keyed create: the new pet, or the one an earlier request with this key and body bytes created (a replay). */
  private async createOnce(key: string, body: CreatePetDto, request: FastifyRequest, reply: FastifyReply): Promise<Pet> {
    // The body's bytes as received: the same JSON written otherwise is another request (docs/contract.md).
    const fingerprint = createHash('sha256')
      .update(request.rawBody ?? '')
      .digest();
    const result = await this.pets.createOnce(principalOf(request).keyId, key, fingerprint, body);
    switch (result.outcome) {
      case 'created':
        return result.pet;
      case 'replayed':
        void reply.header('idempotent-replayed', 'true');
        return result.pet;
      case 'mismatch':
        throw keyReused();
      case 'in-progress':
        throw keyInProgress();
    }
  }

  @Get(':petId')
  @ApiGetPet()
  get(@Param() { petId }: PetPathDto): Promise<Pet> {
    return this.pets.get(petId);
  }
}
