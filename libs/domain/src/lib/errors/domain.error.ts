/** A domain error's kind, which adapters translate into their protocol (HTTP: 404, 503…) without knowing each error. */
export type DomainErrorKind = 'not-found' | 'unavailable' | 'outcome-unknown';

/** Base of the domain's errors: a stable code and a kind; each class also has a static `code`, for documents that name it. */
export abstract class DomainError extends Error {
  abstract readonly code: string;
  abstract readonly kind: DomainErrorKind;

  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = new.target.name;
  }
}
