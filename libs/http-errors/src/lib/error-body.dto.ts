import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { ErrorCode } from './error-code';

/** Messages are cut to this many characters: they may quote client input, which can be long. */
export const ERROR_MESSAGE_MAX_LENGTH = 1000;

/** The body of every error response. */
@ApiSchema({ name: 'Error', description: 'The body of every error response' })
export class ErrorBody {
  @ApiProperty({ enum: ErrorCode, enumName: 'ErrorCode', description: 'Machine-readable error code', example: ErrorCode.ValidationFailed })
  code!: ErrorCode;

  @ApiProperty({
    description: 'Human-readable description',
    maxLength: ERROR_MESSAGE_MAX_LENGTH,
    example: 'name must be 1 to 255 characters long',
  })
  message!: string;

  @ApiProperty({ type: 'integer', format: 'int32', minimum: 400, maximum: 599, description: 'The HTTP status code', example: 400 })
  status!: number;
}
