import { DomainError } from './domain.error';

export class PetNotFoundError extends DomainError {
  constructor(readonly petId: bigint) {
    super(`No pet with id ${petId}`);
  }
}
