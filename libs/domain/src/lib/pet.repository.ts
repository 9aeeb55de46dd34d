import type { NewPet, Pet } from './pet';
import type { PetQuery } from './pet-page';
import type { PetStatus } from './pet-status';

/**
 * The port through which the domain stores pets. An abstract class rather than an
 * interface so that it survives compilation and can serve as a dependency-injection token.
 */
export abstract class PetRepository {
  /** Pets matching the query, in ascending id order. */
  abstract list(query: PetQuery): Promise<Pet[]>;

  /** The pet with this id, or undefined. */
  abstract findById(id: bigint): Promise<Pet | undefined>;

  /** Stores a new pet and returns it with its assigned id. */
  abstract create(pet: NewPet & { readonly status: PetStatus }): Promise<Pet>;
}
