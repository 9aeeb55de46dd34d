import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { HttpErrorCode } from './error-code';

/** Messages are cut to this many characters: they may quote client input, which can be long. */
export const ERROR_MESSAGE_MAX_LENGTH = 1000;

/** The name of the document's schema that lists every error code (errorCodesOf gives it all of them). */
export const ERROR_CODE_SCHEMA = 'ErrorCode';

@ApiSchema({ name: 'Error', description: 'The body of every error response' })
export class ErrorBody {
  // The protocol's codes here; documentErrorCodes adds each feature's (ApiErrorCodes).
  @ApiProperty({
    enum: HttpErrorCode,
    enumName: ERROR_CODE_SCHEMA,
    description: 'Machine-readable error code',
    example: HttpErrorCode.ValidationFailed,
  })
  code!: string;

  @ApiProperty({
    description: 'Human-readable description',
    maxLength: ERROR_MESSAGE_MAX_LENGTH,
    example: 'name must be 1 to 255 characters long',
  })
  message!: string;

  @ApiProperty({ type: 'integer', format: 'int32', minimum: 400, maximum: 599, description: 'The HTTP status code', example: 400 })
  status!: number;
}
