import { Injectable } from '@nestjs/common';
import { DEFAULT_PET_STATUS, PetNotFoundError, PetRepository, type NewPet, type Pet, type PetQuery } from '@petstore/domain';

/** The pet store's use cases. */
@Injectable()
export class PetsService {
  constructor(private readonly pets: PetRepository) {}

  list(query: PetQuery): Promise<Pet[]> {
    return this.pets.list(query);
  }

  async get(id: bigint): Promise<Pet> {
    const pet = await this.pets.findById(id);
    if (!pet) throw new PetNotFoundError(id);
    return pet;
  }

  create(pet: NewPet): Promise<Pet> {
    return this.pets.create({ name: pet.name, categoryId: pet.categoryId, status: pet.status ?? DEFAULT_PET_STATUS });
  }
}
