import { HttpException } from '@nestjs/common';
import { HttpErrorCode } from './error-code';

/** Each feature's codes (ApiErrorCodes), added by augmenting this interface: `interface FeatureErrorCodes { pets: PetsErrorCode }`. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled in by each feature's augmentation
export interface FeatureErrorCodes {}

/** A code an Error answer may carry: the protocol's, or one a feature declared (the document's ErrorCode). */
export type ErrorCode = HttpErrorCode | FeatureErrorCodes[keyof FeatureErrorCodes];

/** An HTTP error with its code and headers; a code declared nowhere does not compile, so none goes out undocumented. */
export class ApiException extends HttpException {
  constructor(
    readonly code: ErrorCode,
    status: number,
    message: string,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message, status);
  }
}

export function validationFailed(message: string): ApiException {
  return new ApiException(HttpErrorCode.ValidationFailed, 400, message);
}
