import { DomainError } from './domain.error';

/** The pet store cannot be reached right now; the request may succeed if retried later. */
export class StoreUnavailableError extends DomainError {
  constructor(options?: ErrorOptions) {
    super('The pet store is temporarily unavailable', options);
  }
}
