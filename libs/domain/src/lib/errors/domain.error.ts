/**
 * What kind of failure a domain error is: the adapters translate the kind into their own
 * protocol (HTTP: 404, 503…) without knowing each error.
 */
export type DomainErrorKind = 'not-found' | 'unavailable' | 'outcome-unknown';

/**
 * Base of every error the domain raises: a stable machine-readable code and a kind. Each error
 * class also gives its code as a static `code`, for what documents it without raising it.
 */
export abstract class DomainError extends Error {
  abstract readonly code: string;
  abstract readonly kind: DomainErrorKind;

  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = new.target.name;
  }
}
