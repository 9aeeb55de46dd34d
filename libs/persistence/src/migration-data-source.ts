// TypeORM CLI's DataSource (docs/development.md, "Migrations"): on a scratch database at the last migration, so diffs are the entities'.
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
