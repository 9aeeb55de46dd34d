import { DomainError } from './domain.error';

/** A write's answer never came back: it may or may not be done; a retry with the same Idempotency-Key learns which. */
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
