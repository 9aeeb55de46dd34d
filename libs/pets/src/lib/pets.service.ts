import { Inject, Injectable } from '@nestjs/common';
import {
  type CreateOnceResult,
  DEFAULT_PET_STATUS,
  PetNotFoundError,
  PetRepository,
  type NewPet,
  type Pet,
  type PetQuery,
  type PetStatus,
} from '@petstore/domain';
import { IDEMPOTENCY_OPTIONS, type IdempotencyOptions } from './idempotency.options';

/** The pet store's use cases. */
@Injectable()
export class PetsService {
  constructor(
    private readonly pets: PetRepository,
    @Inject(IDEMPOTENCY_OPTIONS) private readonly idempotency: IdempotencyOptions,
  ) {}

  list(query: PetQuery): Promise<Pet[]> {
    return this.pets.list(query);
  }

  async get(id: bigint): Promise<Pet> {
    const pet = await this.pets.findById(id);
    if (!pet) throw new PetNotFoundError(id);
    return pet;
  }

  create(pet: NewPet): Promise<Pet> {
    return this.pets.create(withStatus(pet));
  }

  /** Creates a pet once for all of `principal`'s requests with `key` and `fingerprint` (docs/contract.md, "Safe retries"). */
  createOnce(principal: string, key: string, fingerprint: Uint8Array, pet: NewPet): Promise<CreateOnceResult> {
    return this.pets.createOnce({ principal, key, fingerprint }, withStatus(pet), this.idempotency.lifetimeSeconds);
  }
}

function withStatus(pet: NewPet): NewPet & { readonly status: PetStatus } {
  return { name: pet.name, categoryId: pet.categoryId, status: pet.status ?? DEFAULT_PET_STATUS };
}
