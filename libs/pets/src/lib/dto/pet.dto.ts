import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { PET_NAME_MAX_LENGTH, PET_NAME_MIN_LENGTH, PET_NAME_PATTERN, PET_STATUSES, type PetStatus } from '@petstore/domain';

/** Pet: what the service returns. Documentation only; responses are serialized by PET_SCHEMA. */
@ApiSchema({ name: 'Pet' })
export class PetDto {
  @ApiProperty({ type: 'integer', format: 'int64', description: 'Unique identifier assigned by the service on creation', example: 1 })
  id!: bigint;

  @ApiProperty({
    description: "The animal's name",
    minLength: PET_NAME_MIN_LENGTH,
    maxLength: PET_NAME_MAX_LENGTH,
    pattern: PET_NAME_PATTERN,
    example: 'Rex',
  })
  name!: string;

  @ApiProperty({ type: 'integer', format: 'int64', description: 'Identifier of the category the animal belongs to', example: 1 })
  categoryId!: bigint;

  @ApiProperty({ enum: PET_STATUSES, enumName: 'PetStatus', description: 'Availability of the animal' })
  status!: PetStatus;
}
