import { Body, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Principal } from '@petstore/auth';
import type { Pet } from '@petstore/domain';
import { AnswerHeaders, ApiController, RouteUrl } from '@petstore/http';
import { ApiErrorCodes } from '@petstore/http-errors';
import { CreatePetDto } from './dto/create-pet.dto';
import { ListPetsQueryDto } from './dto/list-pets-query.dto';
import { PetPathDto } from './dto/pet-path.dto';
import { IdempotencyKey, type IdempotencyKeyed } from './idempotency-key.header';
import { ApiCreatePet, ApiGetPet, ApiListPets } from './pets.api-docs';
import { PetsErrorCode, PetsRefusal } from './pets.error-codes';
import { PetsService } from './pets.service';

@ApiTags('pets')
@ApiErrorCodes(Object.values(PetsErrorCode))
@ApiController('pets')
export class PetsController {
  constructor(private readonly pets: PetsService) {}

  @Get()
  @ApiListPets()
  async list(
    @Query() { limit, status, after }: ListPetsQueryDto,
    @RouteUrl() url: string,
    @AnswerHeaders() answer: AnswerHeaders,
  ): Promise<Pet[]> {
    const pets = await this.pets.list({ limit, status, after });
    if (pets.length === limit) {
      // A full page may have a successor: point at it (RFC 8288), keeping the filter.
      const filter = status ? `&status=${status}` : '';
      answer.set('link', `<${url}?limit=${limit}${filter}&after=${pets[limit - 1].id}>; rel="next"`);
    }
    return pets;
  }

  @Post()
  @HttpCode(201)
  @ApiCreatePet()
  async create(
    @Body() body: CreatePetDto,
    @IdempotencyKey() keyed: IdempotencyKeyed | undefined,
    @Principal() principal: Principal,
    @RouteUrl() url: string,
    @AnswerHeaders() answer: AnswerHeaders,
  ): Promise<Pet> {
    const pet = keyed === undefined ? await this.pets.create(body) : await this.createOnce(principal, keyed, body, answer);
    answer.set('location', `${url}/${pet.id}`);
    return pet;
  }

  /** A keyed create: the new pet, or the one an earlier request with this key and body bytes created (a replay). */
  private async createOnce(principal: Principal, { key, fingerprint }: IdempotencyKeyed, body: CreatePetDto, answer: AnswerHeaders) {
    const result = await this.pets.createOnce(principal.keyId, key, fingerprint, body);
    switch (result.outcome) {
      case 'created':
        return result.pet;
      case 'replayed':
        answer.set('idempotent-replayed', 'true');
        return result.pet;
      case 'mismatch':
        throw PetsRefusal.keyReused();
      case 'in-progress':
        throw PetsRefusal.keyInProgress();
    }
  }

  @Get(':petId')
  @ApiGetPet()
  get(@Param() { petId }: PetPathDto): Promise<Pet> {
    return this.pets.get(petId);
  }
}
