import type { CreateOnceResult, IdempotentRequest } from './idempotency';
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

  /**
   * Stores a new pet once per idempotent request: the pet and the record of its answer are
   * written together or not at all, and the record is kept for `lifetimeSeconds`. A request
   * whose key has an unexpired record gets that record's pet back (or a mismatch, when the
   * record belongs to another request); one whose key is being stored right now is told so
   * at once, without waiting.
   */
  abstract createOnce(
    request: IdempotentRequest,
    pet: NewPet & { readonly status: PetStatus },
    lifetimeSeconds: number,
  ): Promise<CreateOnceResult>;

  /** Deletes at most `limit` expired records of idempotent requests (never their pets); returns how many. */
  abstract deleteExpiredIdempotencyRecords(limit: number): Promise<number>;
}
