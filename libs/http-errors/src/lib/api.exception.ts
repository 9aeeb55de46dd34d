import { HttpException } from '@nestjs/common';
import { ErrorCode } from './error-code';

/** An HTTP error with its catalog code and any headers the answer must carry. */
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
  return new ApiException(ErrorCode.ValidationFailed, 400, message);
}
