import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import {
  DEFAULT_PET_STATUS,
  PET_NAME_MAX_LENGTH,
  PET_NAME_MIN_LENGTH,
  PET_NAME_PATTERN,
  PET_STATUSES,
  type PetStatus,
} from '@petstore/domain';
import { ValidateIf } from 'class-validator';
import { IsInt64, IsPetName, IsPetStatus } from './pet-validators';

/** NewPet: the request body of createPet. */
@ApiSchema({ name: 'NewPet' })
export class CreatePetDto {
  @ApiProperty({
    description: "The animal's name: 1 to 255 characters, no control characters; stored verbatim",
    minLength: PET_NAME_MIN_LENGTH,
    maxLength: PET_NAME_MAX_LENGTH,
    pattern: PET_NAME_PATTERN,
    example: 'Rex',
  })
  @IsPetName()
  name!: string;

  @ApiProperty({ type: 'integer', format: 'int64', description: 'Identifier of the category the animal belongs to', example: 1 })
  @IsInt64()
  categoryId!: bigint;

  @ApiPropertyOptional({
    enum: PET_STATUSES,
    enumName: 'PetStatus',
    default: DEFAULT_PET_STATUS,
    description: `Availability of the animal; ${DEFAULT_PET_STATUS} when omitted`,
  })
  // Present means validated: an explicit null is an error, not "omitted".
  @ValidateIf((dto: object) => 'status' in dto)
  @IsPetStatus()
  status?: PetStatus;
}
