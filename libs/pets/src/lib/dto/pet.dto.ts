import { ApiProperty } from '@nestjs/swagger';
import {
  DEFAULT_PET_STATUS,
  PET_NAME_MAX_LENGTH,
  PET_NAME_MIN_LENGTH,
  PET_NAME_PATTERN,
  PET_STATUSES,
  type Pet,
  type PetStatus,
} from '@petstore/domain';
import { ApiModel, IsInt64 } from '@petstore/http';
import { IsIn, IsString, Length, Matches } from 'class-validator';

/** Pet, the one schema every answer writes; its class-validator rules check NewPet and document answers (docs/decisions/0007). */
@ApiModel({ name: 'Pet' })
export class PetDto implements Pet {
  @ApiProperty({ type: 'integer', format: 'int64', description: 'Unique identifier assigned by the service on creation', example: 1 })
  id!: bigint;

  @IsString()
  @Length(PET_NAME_MIN_LENGTH, PET_NAME_MAX_LENGTH)
  @Matches(new RegExp(PET_NAME_PATTERN), { message: 'must not contain control characters' })
  @ApiProperty({ description: "The animal's name: 1 to 255 characters, no control characters; stored verbatim", example: 'Rex' })
  name!: string;

  @IsInt64()
  @ApiProperty({ type: 'integer', format: 'int64', description: 'Identifier of the category the animal belongs to', example: 1 })
  categoryId!: bigint;

  @IsIn(PET_STATUSES)
  @ApiProperty({ enum: PET_STATUSES, enumName: 'PetStatus', description: 'Availability of the animal', example: DEFAULT_PET_STATUS })
  status!: PetStatus;
}
