import { ApiPropertyOptional } from '@nestjs/swagger';
import { PET_PAGE_DEFAULT_LIMIT, PET_PAGE_MAX_LIMIT, PET_PAGE_MIN_LIMIT, PET_STATUSES, type PetStatus } from '@petstore/domain';

/**
 * The query of listPets. The document's parameters come from it, and Fastify checks the query
 * against them (docs/decisions/0007): `limit` arrives as a number (its default applied), `after`
 * as a bigint.
 */
export class ListPetsQueryDto {
  @ApiPropertyOptional({
    type: 'integer',
    format: 'int32',
    minimum: PET_PAGE_MIN_LIMIT,
    maximum: PET_PAGE_MAX_LIMIT,
    default: PET_PAGE_DEFAULT_LIMIT,
    description: 'Maximum number of animals returned',
  })
  limit!: number;

  @ApiPropertyOptional({ enum: PET_STATUSES, enumName: 'PetStatus', description: 'Filters by availability' })
  status?: PetStatus;

  @ApiPropertyOptional({
    type: 'integer',
    format: 'int64',
    description: 'Keyset cursor: only animals whose id is greater (the id of the last animal of the previous page)',
  })
  after?: bigint;
}
