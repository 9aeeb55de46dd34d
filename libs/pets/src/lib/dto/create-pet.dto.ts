import { ApiPropertyOptional, IntersectionType, PartialType, PickType } from '@nestjs/swagger';
import { DEFAULT_PET_STATUS, type NewPet, type PetStatus } from '@petstore/domain';
import { ApiModel } from '@petstore/http';
import { PetDto } from './pet.dto';

/** NewPet, createPet's body: Pet's name and category; its status optional but checked when present (null too: not `nullable`). */
@ApiModel({ name: 'NewPet' })
export class CreatePetDto
  extends IntersectionType(PickType(PetDto, ['name', 'categoryId']), PartialType(PickType(PetDto, ['status'])))
  implements NewPet
{
  @ApiPropertyOptional({ default: DEFAULT_PET_STATUS, description: `Availability of the animal; ${DEFAULT_PET_STATUS} when omitted` })
  declare status?: PetStatus;
}
