import { ApiPropertyOptional, ApiSchema, IntersectionType, PartialType, PickType } from '@nestjs/swagger';
import { DEFAULT_PET_STATUS, type NewPet, type PetStatus } from '@petstore/domain';
import { PetDto } from './pet.dto';

/**
 * NewPet: the request body of createPet, derived from Pet: its name and category as they are,
 * its status optional. Present means checked: null is no status, unless the schema says `nullable`.
 */
@ApiSchema({ name: 'NewPet' })
export class CreatePetDto
  extends IntersectionType(PickType(PetDto, ['name', 'categoryId']), PartialType(PickType(PetDto, ['status'])))
  implements NewPet
{
  @ApiPropertyOptional({ default: DEFAULT_PET_STATUS, description: `Availability of the animal; ${DEFAULT_PET_STATUS} when omitted` })
  declare status?: PetStatus;
}
