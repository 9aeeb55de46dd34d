import { DEFAULT_PET_STATUS, PET_STATUSES, type PetStatus } from '@petstore/domain';
import { Check, Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/** A pet, as the `pets` table holds it: a row becomes the domain's Pet through toPet (sql-pet.repository.ts). */
@Entity('pets')
@Check('pets_name_not_empty', 'char_length(name) >= 1')
@Check('pets_status_known', `status IN (${PET_STATUSES.map((status) => `'${status}'`).join(', ')})`)
// The status list's index walk ("WHERE status = $1 ORDER BY id"); the unfiltered list walks the primary key.
@Index('pets_status_id_idx', ['status', 'id'])
export class PetEntity {
  @PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'ALWAYS', primaryKeyConstraintName: 'pets_pkey' })
  id!: bigint;

  @Column({ type: 'varchar', length: 255 })
  name!: string;

  @Column({ name: 'category_id', type: 'bigint' })
  categoryId!: bigint;

  @Column({ type: 'varchar', length: 16, default: DEFAULT_PET_STATUS })
  status!: PetStatus;
}
