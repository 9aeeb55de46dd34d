import { ApiProperty } from '@nestjs/swagger';
import { ApiModel, IsInt64 } from '@petstore/http';

/** The path of the operations on one pet: its id, a bigint. */
@ApiModel()
export class PetPathDto {
  @IsInt64()
  @ApiProperty({ type: 'integer', format: 'int64', description: 'Identifier of the animal', example: 1 })
  petId!: bigint;
}
