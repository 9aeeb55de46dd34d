import { DomainError } from './domain.error';

export class PetNotFoundError extends DomainError {
  static readonly code = 'PET_NOT_FOUND';
  readonly code = PetNotFoundError.code;
  readonly kind = 'not-found';

  constructor(readonly petId: bigint) {
    super(`No pet with id ${petId}`);
  }
}
