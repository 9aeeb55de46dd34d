import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateApiKeys1764000000000 implements MigrationInterface {
  name = 'CreateApiKeys1764000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE api_keys (
        id bigint GENERATED ALWAYS AS IDENTITY CONSTRAINT api_keys_pkey PRIMARY KEY,
        name varchar(100) NOT NULL CONSTRAINT api_keys_name_not_empty CHECK (char_length(name) >= 1),
        prefix varchar(32) NOT NULL CONSTRAINT api_keys_prefix_key UNIQUE,
        secret_sha256 char(64) NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        last_used_at timestamptz,
        revoked_at timestamptz
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE api_keys`);
  }
}
