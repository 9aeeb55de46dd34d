import { HttpException } from '@nestjs/common';
import { HttpErrorCode } from './error-code';

/**
 * An HTTP error with its code and any headers the answer must carry. The code is the protocol's
 * (HttpErrorCode) or the raising feature's own, which it declares with ApiErrorCodes.
 */
export class ApiException extends HttpException {
  constructor(
    readonly code: string,
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
