import { PetNotFoundError, WriteOutcomeUnknownError } from '@petstore/domain';

/**
 * The codes of the pets operations' Error answers beyond the protocol's (HttpErrorCode): the
 * domain errors they let through, by the errors' own code, and the idempotent create's refusals,
 * defined here. The controller declares them (ApiErrorCodes), so the document lists them.
 */
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
