import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { ErrorCode } from './error-code';

/** The body of every error response. */
@ApiSchema({ name: 'Error', description: 'The body of every error response' })
export class ErrorBody {
  @ApiProperty({ enum: ErrorCode, enumName: 'ErrorCode', description: 'Machine-readable error code', example: ErrorCode.ValidationFailed })
  code!: ErrorCode;

  @ApiProperty({ description: 'Human-readable description', example: 'name must be 1 to 255 characters long' })
  message!: string;

  @ApiProperty({ type: 'integer', description: 'The HTTP status code', example: 400 })
  status!: number;
}
