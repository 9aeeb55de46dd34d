import { ApiProperty } from '@nestjs/swagger';
import { PET_PAGE_DEFAULT_LIMIT, PET_PAGE_MAX_LIMIT, PET_PAGE_MIN_LIMIT, PET_STATUSES, type PetStatus } from '@petstore/domain';
import { ApiModel, IsInt64 } from '@petstore/http';
import { IsIn, IsInt, IsOptional, Max, Min } from 'class-validator';

/** listPets's query, checked as docs/decisions/0007 says: `limit` arrives a number (default applied), `after` a bigint. */
@ApiModel()
export class ListPetsQueryDto {
  @IsOptional()
  @IsInt()
  @Min(PET_PAGE_MIN_LIMIT)
  @Max(PET_PAGE_MAX_LIMIT)
  @ApiProperty({ default: PET_PAGE_DEFAULT_LIMIT, description: 'Maximum number of animals returned' })
  limit!: number;

  @IsOptional()
  @IsIn(PET_STATUSES)
  @ApiProperty({ enumName: 'PetStatus', description: 'Filters by availability' })
  status?: PetStatus;

  @IsOptional()
  @IsInt64()
  @ApiProperty({
    type: 'integer',
    format: 'int64',
    description: 'Keyset cursor: only animals whose id is greater (the id of the last animal of the previous page)',
  })
  after?: bigint;
}
