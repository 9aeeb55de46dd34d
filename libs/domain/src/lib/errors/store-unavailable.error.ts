import { DomainError } from './domain.error';

/** The pet store cannot be reached right now; the request may succeed if retried later. */
export class StoreUnavailableError extends DomainError {
  static readonly code = 'SERVICE_UNAVAILABLE';
  readonly code = StoreUnavailableError.code;
  readonly kind = 'unavailable';

  constructor(options?: ErrorOptions) {
    super('The pet store is temporarily unavailable', options);
  }
}
