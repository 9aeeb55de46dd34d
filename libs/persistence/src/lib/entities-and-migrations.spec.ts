import type { DataSource } from 'typeorm';
import { createTestDatabase, type TestDatabase } from '../testing';
import { createDataSource } from './data-source';

// The entities are the schema's source, the migrations make it: after every migration, the database
// is what the entities say. On the test database's store: PGlite, or PostgreSQL with TEST_DATABASE_URL.

describe('the entities and the migrations', () => {
  let testDatabase: TestDatabase | undefined;
  let dataSource: DataSource | undefined;
  beforeAll(async () => {
    testDatabase = await createTestDatabase();
    dataSource = await createDataSource(testDatabase.location);
    await dataSource.initialize();
    await dataSource.runMigrations();
  });
  afterAll(async () => {
    if (dataSource?.isInitialized) await dataSource.destroy();
    await testDatabase?.drop();
  });

  it('agree: after every migration, TypeORM finds nothing to change for the entities', async () => {
    const { upQueries } = await dataSource!.driver.createSchemaBuilder().log();
    // What `npm run migration:generate -- <name>` would write (docs/development.md, "Migrations"):
    // an entity changed without its migration, or a migration missing from MIGRATIONS.
    expect(upQueries.map((query) => query.query)).toEqual([]);
  });

  it("agree on each CHECK's expression, which TypeORM compares by name alone", async () => {
    // Each entity's CHECK is added beside the migrated one under a name of its own, in a transaction
    // rolled back: PostgreSQL writes both definitions alike, so they compare as text.
    const checks = dataSource!.entityMetadatas.flatMap(({ tableName, checks }) =>
      checks.map(({ name, expression }) => ({ tableName, name, expression })),
    );
    const runner = dataSource!.createQueryRunner();
    await runner.startTransaction();
    try {
      for (const [index, { tableName, expression }] of checks.entries())
        await runner.query(`ALTER TABLE "${tableName}" ADD CONSTRAINT "entity_check_${index}" CHECK (${expression})`);
      const rows = (await runner.query(
        `SELECT conname AS name, pg_get_constraintdef(oid) AS definition FROM pg_constraint WHERE contype = 'c'`,
      )) as {
        name: string;
        definition: string;
      }[];
      const definition = new Map(rows.map((row) => [row.name, row.definition]));
      expect(checks.length).toBeGreaterThan(0);
      expect(checks.map(({ name }, index) => [name, definition.get(`entity_check_${index}`)])).toEqual(
        checks.map(({ name }) => [name, definition.get(name)]),
      );
    } finally {
      await runner.rollbackTransaction();
      await runner.release();
    }
  });
});
