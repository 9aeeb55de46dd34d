import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CreatePets1763900000000 implements MigrationInterface {
  name = 'CreatePets1763900000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE pets (
        id bigint GENERATED ALWAYS AS IDENTITY CONSTRAINT pets_pkey PRIMARY KEY,
        name varchar(255) NOT NULL CONSTRAINT pets_name_not_empty CHECK (char_length(name) >= 1),
        category_id bigint NOT NULL,
        status varchar(16) NOT NULL DEFAULT 'available'
          CONSTRAINT pets_status_known CHECK (status IN ('available', 'pending', 'sold'))
      )`);
    await queryRunner.query(`CREATE INDEX pets_status_id_idx ON pets (status, id)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE pets`);
  }
}
