import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import type { PetStatus } from '@petstore/domain';

/**
 * The `pets` table. Migrations own the schema; this entity describes it to TypeORM
 * (so `migration:generate` can diff it) and types the rows the repository reads.
 * int8 columns are strings here: that is how the driver hands them over, without rounding.
 */
@Entity({ name: 'pets' })
@Index('pets_status_id_idx', ['status', 'id'])
export class PetEntity {
  @PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'ALWAYS', primaryKeyConstraintName: 'pets_pkey' })
  id!: string;

  @Column({ type: 'varchar', length: 255 })
  name!: string;

  @Column({ name: 'category_id', type: 'bigint' })
  categoryId!: string;

  @Column({ type: 'varchar', length: 16, default: 'available' })
  status!: PetStatus;
}
