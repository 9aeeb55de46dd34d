import { Check, Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** A completed idempotent create (createOnce); apiKeyId is a public name. A replay is a 201 by construction: only the body is kept. */
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
