import type { CreateOnceResult, IdempotentRequest } from './idempotency';
import type { NewPet, Pet } from './pet';
import type { PetQuery } from './pet-page';
import type { PetStatus } from './pet-status';

/** The domain's port for storing pets: an abstract class, not an interface, so it survives compilation as a DI token. */
export abstract class PetRepository {
  /** Pets matching the query, in ascending id order. */
  abstract list(query: PetQuery): Promise<Pet[]>;
  /** The pet with this id, or undefined. */
  abstract findById(id: bigint): Promise<Pet | undefined>;
  /** Stores a new pet and returns it with its assigned id. */
  abstract create(pet: NewPet & { readonly status: PetStatus }): Promise<Pet>;
  /** Stores a pet once per idempotent request, with its answer's record, for `lifetimeSeconds`; a key in progress is told so at once. */
  abstract createOnce(
    request: IdempotentRequest,
    pet: NewPet & { readonly status: PetStatus },
    lifetimeSeconds: number,
  ): Promise<CreateOnceResult>;
}
