import { Check, Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * One completed idempotent create, as the `idempotency_records` table holds it, written in the same
 * statement as its pet (SqlPetRepository.createOnce). apiKeyId is the principal's public name (an
 * issued key's prefix, or env-N), not a secret. The answer is 201 by construction and its Location
 * is /v1/pets/{id}: what a replay needs beyond that is the body, kept as sent (int64 exact in jsonb).
 */
@Entity('idempotency_records')
@Check('idempotency_records_sha256_length', 'octet_length(request_sha256) = 32')
// The sweeper's batches: the oldest expired records first, an index range scan however large the table.
@Index('idempotency_records_expires_at_idx', ['expiresAt'])
export class IdempotencyRecordEntity {
  @PrimaryColumn({ name: 'api_key_id', type: 'varchar', length: 64, primaryKeyConstraintName: 'idempotency_records_pkey' })
  apiKeyId!: string;

  @PrimaryColumn({ name: 'idempotency_key', type: 'varchar', length: 255, primaryKeyConstraintName: 'idempotency_records_pkey' })
  idempotencyKey!: string;

  @Column({ name: 'request_sha256', type: 'bytea' })
  requestSha256!: Buffer;

  @Column({ name: 'pet_id', type: 'bigint' })
  petId!: bigint;

  @Column({ name: 'response_body', type: 'jsonb' })
  responseBody!: unknown;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt!: Date;
}
