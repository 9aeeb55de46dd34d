import { PetNotFoundError, WriteOutcomeUnknownError } from '@petstore/domain';
import { ApiException } from '@petstore/http-errors';

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

/** Seconds a retry is asked to wait for the first request with its Idempotency-Key, which takes milliseconds. */
export const IDEMPOTENCY_RETRY_AFTER_SECONDS = 1;

/** The feature's own refusals, made here once: the handler throws them, the document shows them as its examples. */
export const PetsRefusal = {
  keyInProgress: () =>
    new ApiException(
      PetsErrorCode.IdempotencyKeyInProgress,
      409,
      `A request with this Idempotency-Key is being processed; retry in ${IDEMPOTENCY_RETRY_AFTER_SECONDS} s`,
      { 'retry-after': String(IDEMPOTENCY_RETRY_AFTER_SECONDS) },
    ),
  keyReused: () =>
    new ApiException(
      PetsErrorCode.IdempotencyKeyReused,
      422,
      'This Idempotency-Key was used with another request body; send a new key for a new request',
    ),
};
