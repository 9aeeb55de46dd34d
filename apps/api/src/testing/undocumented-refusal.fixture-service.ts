import { PetNotFoundError } from '@petstore/domain';

/** A service whose error undocumented-refusal.fixture.ts's operation does not document. */
export class FixtureService {
  find(): never {
    return this.missing();
  }

  private missing(): never {
    throw new PetNotFoundError(1n);
  }
}
