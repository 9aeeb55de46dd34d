import { Check, Column, Entity, PrimaryGeneratedColumn, Unique } from 'typeorm';

/** An issued API key: only the SHA-256 of its secret is stored, in hex; the unique prefix finds a presented key (one lookup). */
@Entity('api_keys')
@Check('api_keys_name_not_empty', 'char_length(name) >= 1')
@Unique('api_keys_prefix_key', ['prefix'])
export class ApiKeyEntity {
  @PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'ALWAYS', primaryKeyConstraintName: 'api_keys_pkey' })
  id!: bigint;

  @Column({ type: 'varchar', length: 100 })
  name!: string;

  @Column({ type: 'varchar', length: 32 })
  prefix!: string;

  @Column({ name: 'secret_sha256', type: 'char', length: 64 })
  secretSha256!: string;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;

  @Column({ name: 'last_used_at', type: 'timestamptz', nullable: true })
  lastUsedAt!: Date | null;

  @Column({ name: 'revoked_at', type: 'timestamptz', nullable: true })
  revokedAt!: Date | null;
}
