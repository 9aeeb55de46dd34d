import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import {
  DEFAULT_PET_STATUS,
  PET_NAME_MAX_LENGTH,
  PET_NAME_MIN_LENGTH,
  PET_NAME_PATTERN,
  PET_STATUSES,
  type Pet,
  type PetStatus,
} from '@petstore/domain';

/**
 * Pet: the one schema of a pet for the HTTP API. Its decorators make the OpenAPI document, and
 * through it what Fastify checks in a request body (NewPet is derived from it) and writes in
 * every answer (docs/decisions/0007).
 */
@ApiSchema({ name: 'Pet' })
export class PetDto implements Pet {
  @ApiProperty({ type: 'integer', format: 'int64', description: 'Unique identifier assigned by the service on creation', example: 1 })
  id!: bigint;

  @ApiProperty({
    description: "The animal's name: 1 to 255 characters, no control characters; stored verbatim",
    minLength: PET_NAME_MIN_LENGTH,
    maxLength: PET_NAME_MAX_LENGTH,
    pattern: PET_NAME_PATTERN,
    // What the pattern means, for clients and for the refusal's message (route-schemas.ts).
    ...{ 'x-pattern-means': 'must not contain control characters' },
    example: 'Rex',
  })
  name!: string;

  @ApiProperty({ type: 'integer', format: 'int64', description: 'Identifier of the category the animal belongs to', example: 1 })
  categoryId!: bigint;

  @ApiProperty({ enum: PET_STATUSES, enumName: 'PetStatus', description: 'Availability of the animal', example: DEFAULT_PET_STATUS })
  status!: PetStatus;
}
