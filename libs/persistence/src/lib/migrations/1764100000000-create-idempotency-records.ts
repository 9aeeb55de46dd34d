import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateIdempotencyRecords1764100000000 implements MigrationInterface {
  name = 'CreateIdempotencyRecords1764100000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE idempotency_records (
        api_key_id varchar(64) NOT NULL,
        idempotency_key varchar(255) NOT NULL,
        request_sha256 bytea NOT NULL CONSTRAINT idempotency_records_sha256_length CHECK (octet_length(request_sha256) = 32),
        pet_id bigint NOT NULL,
        response_body jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL,
        CONSTRAINT idempotency_records_pkey PRIMARY KEY (api_key_id, idempotency_key)
      )`);
    await queryRunner.query(`CREATE INDEX idempotency_records_expires_at_idx ON idempotency_records (expires_at)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE idempotency_records`);
  }
}
