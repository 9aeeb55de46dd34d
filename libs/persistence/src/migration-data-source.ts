// The DataSource TypeORM's CLI loads (`npm run migration:generate -- <name>`, docs/development.md,
// "Migrations"): the service's own, on a scratch embedded database brought up to the last migration,
// so that what TypeORM finds to change is what the entities add to the migrations. The scratch
// database is removed when the CLI exits.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DataSource } from 'typeorm';
import { createDataSource } from './lib/data-source';
import { seedEmbeddedDatabase } from './lib/embedded-database';

async function migratedScratchDatabase(): Promise<DataSource> {
  const dataDir = mkdtempSync(join(tmpdir(), 'petstore-migration-'));
  process.on('exit', () => rmSync(dataDir, { recursive: true, force: true }));
  seedEmbeddedDatabase(dataDir);
  const migrating = await createDataSource({ dataDir });
  await migrating.initialize();
  await migrating.runMigrations();
  await migrating.destroy();
  // Not initialized: the CLI sets its options, then initializes it.
  return createDataSource({ dataDir });
}

export const dataSource = migratedScratchDatabase();
