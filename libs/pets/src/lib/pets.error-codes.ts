import { PetNotFoundError, WriteOutcomeUnknownError } from '@petstore/domain';

/** Error codes of the pets operations beyond HttpErrorCode; declared on the controller (ApiErrorCodes) for the document. */
export const PetsErrorCode = {
  PetNotFound: PetNotFoundError.code,
  IdempotencyKeyInProgress: 'IDEMPOTENCY_KEY_IN_PROGRESS',
  IdempotencyKeyReused: 'IDEMPOTENCY_KEY_REUSED',
  WriteOutcomeUnknown: WriteOutcomeUnknownError.code,
} as const;

export type PetsErrorCode = (typeof PetsErrorCode)[keyof typeof PetsErrorCode];

declare module '@petstore/http-errors' {
  interface FeatureErrorCodes {
    readonly pets: PetsErrorCode;
  }
}
