import type { PetStatus } from './pet-status';

/** A pet as the store holds it. Identifiers are int64, so they are bigint end to end. */
export interface Pet {
  readonly id: bigint;
  readonly name: string;
  readonly categoryId: bigint;
  readonly status: PetStatus;
}

/** What a client supplies to add a pet; the store assigns the id. */
export interface NewPet {
  readonly name: string;
  readonly categoryId: bigint;
  readonly status?: PetStatus;
}
