import { DomainError } from './domain.error';

/**
 * A write reached the store and its answer never came back: it may or may not have been done. A
 * retry with the same idempotency key is answered with the one outcome.
 */
export class WriteOutcomeUnknownError extends DomainError {
  static readonly code = 'WRITE_OUTCOME_UNKNOWN';
  readonly code = WriteOutcomeUnknownError.code;
  readonly kind = 'outcome-unknown';

  constructor(options?: ErrorOptions) {
    super(
      'The connection to the pet store was lost before it confirmed the write: it may or may not have been done. Retry with the same Idempotency-Key to learn which',
      options,
    );
  }
}
