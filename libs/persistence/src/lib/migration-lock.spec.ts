import { Client } from 'pg';
import type { MigrationInterface, QueryRunner } from 'typeorm';
import { createTestDatabase, type TestDatabase } from '../testing';
import { createDataSource, MIGRATION_LOCK_TIMEOUT_MS, STATEMENT_DEADLINES } from './data-source';
import { migrateWhenLocksAllow } from './migration-lock';
import { MIGRATIONS } from './migrations';

// A migration on a table that a long transaction holds (a report, a stuck client) waits for a quiet
// moment instead of holding every request to the table behind its lock request (docs/operations.md,
// "Changing the schema"). PostgreSQL's lock queue: PGlite has one session, so nothing ever waits there.

class AddPetNickname1799999999999 implements MigrationInterface {
  name = 'AddPetNickname1799999999999';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE pets ADD COLUMN nickname varchar(64)');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE pets DROP COLUMN nickname');
  }
}

const HELD_MS = 1500;

(process.env.TEST_DATABASE_URL ? describe : describe.skip)('migrateWhenLocksAllow, on PostgreSQL', () => {
  let testDatabase: TestDatabase;
  let url: string;

  beforeAll(async () => {
    testDatabase = await createTestDatabase();
    url = (testDatabase.location as { url: string }).url;
    const migrating = await createDataSource(testDatabase.location);
    await migrating.initialize();
    await migrating.runMigrations({ transaction: 'each' });
    await migrating.destroy();
  });
  afterAll(() => testDatabase?.drop());

  it('gives up on a held lock within its timeout, lets the requests queued behind it through, and migrates once the table is free', async () => {
    const holder = new Client({ connectionString: url });
    // A client, not a pool: pg-pool's end() resolves before its connections close, and the database's drop then terminates
    // one, which its pool reports as an unheard 'error' (pg.Client's end() waits for the connection to close).
    const serving = new Client({ connectionString: url, lock_timeout: STATEMENT_DEADLINES.serverMs });
    const logger = { warn: jest.fn() };
    const migrating = await createDataSource(testDatabase.location, { migrations: [...MIGRATIONS, AddPetNickname1799999999999] });
    try {
      await holder.connect();
      await serving.connect();
      await holder.query('BEGIN');
      await holder.query('SELECT count(*) FROM pets');
      await migrating.initialize();
      const migrated = migrateWhenLocksAllow(migrating, logger, { attempts: 10, pauseMs: 200 });
      // A request arriving while the migration waits for its lock queues behind it, until it gives up.
      await new Promise((resolve) => setTimeout(resolve, 100));
      const started = performance.now();
      await serving.query('SELECT count(*) FROM pets');
      const servedMs = performance.now() - started;
      await new Promise((resolve) => setTimeout(resolve, HELD_MS));
      await holder.query('COMMIT');

      expect((await migrated).map(({ name }) => name)).toEqual(['AddPetNickname1799999999999']);
      expect(servedMs).toBeLessThan(STATEMENT_DEADLINES.serverMs);
      expect(servedMs).toBeLessThan(MIGRATION_LOCK_TIMEOUT_MS + 200);
      expect(logger.warn).toHaveBeenCalledWith(expect.stringContaining("gave up waiting for a table's lock"));
      const columns = await serving.query(
        "SELECT 1 FROM information_schema.columns WHERE table_name = 'pets' AND column_name = 'nickname'",
      );
      expect(columns.rowCount).toBe(1);
    } finally {
      await holder.end();
      await serving.end();
      if (migrating.isInitialized) await migrating.destroy();
    }
  });
});
