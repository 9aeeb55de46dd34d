import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Registry } from 'prom-client';
import { DataSource } from 'typeorm';
import { createTestDatabase, type TestDatabase } from '../testing';
import type { DatabaseLocation } from './data-source';
import { Database } from './database';
import { DatabaseMetrics } from './database-metrics';
import { createEmbeddedTemplate, embeddedDatabaseOptions, seedEmbeddedDatabase } from './embedded-database';
import { MIGRATIONS } from './migrations';
import { CreatePets1763900000000 } from './migrations/1763900000000-create-pets';
import { CreateApiKeys1764000000000 } from './migrations/1764000000000-create-api-keys';
import { CreateIdempotencyRecords1764100000000 } from './migrations/1764100000000-create-idempotency-records';
import { Statement } from './named-statement';
import { PGlitePool, pgliteDriver } from './pglite-pool';
import { SqlApiKeyRepository } from './sql-api-key.repository';
import { SqlPetRepository } from './sql-pet.repository';

// A database made before the entities (builds up to 2baf55f: these migrations, written by hand, and
// no entity) opens on this build with its rows and its migration history: nothing is migrated twice
// or lost. PGlite in a data directory, as the service keeps it, or PostgreSQL with TEST_DATABASE_URL.
const MIGRATIONS_BEFORE_ENTITIES = [CreatePets1763900000000, CreateApiKeys1764000000000, CreateIdempotencyRecords1764100000000];

const INT64_MAX = 9223372036854775807n;
const FINGERPRINT = createHash('sha256').update('body').digest();
const MIGRATIONS_RUN = Statement.adHoc('SELECT id, name FROM migrations ORDER BY id');

/** PostgreSQL's test database, or an embedded one in a data directory of its own (not in memory: it is closed and opened again). */
async function databaseToUpgrade(): Promise<TestDatabase> {
  if (process.env.TEST_DATABASE_URL) return createTestDatabase();
  const dataDir = mkdtempSync(join(tmpdir(), 'petstore-upgrade-'));
  await createEmbeddedTemplate();
  seedEmbeddedDatabase(dataDir);
  return { location: { dataDir }, drop: () => Promise.resolve(rmSync(dataDir, { recursive: true, force: true })) };
}

/** The DataSource of the builds before the entities: their migrations, no entity. */
async function dataSourceBeforeEntities(location: DatabaseLocation): Promise<DataSource> {
  const options = { type: 'postgres', migrations: MIGRATIONS_BEFORE_ENTITIES, migrationsTransactionMode: 'each' } as const;
  if ('url' in location) return new DataSource({ ...options, url: location.url });
  if (!('dataDir' in location)) throw new Error('An embedded database to upgrade lives in a data directory');
  return new DataSource({ ...options, driver: pgliteDriver(new PGlitePool(await embeddedDatabaseOptions(location))) });
}

describe('a database made before the entities', () => {
  let testDatabase: TestDatabase | undefined;
  beforeAll(async () => {
    testDatabase = await databaseToUpgrade();
  });
  afterAll(() => testDatabase?.drop());

  it('opens with its rows and its migration history, each migration run once', async () => {
    const before = await dataSourceBeforeEntities(testDatabase!.location);
    await before.initialize();
    let history: unknown[];
    try {
      await before.runMigrations();
      history = await before.query<unknown[]>('SELECT id, name FROM migrations ORDER BY id');
      await before.query(`INSERT INTO pets (name, category_id, status) VALUES ('Rex', $1, 'sold'), ('Tom', 1, DEFAULT)`, [
        INT64_MAX.toString(),
      ]);
      await before.query(`INSERT INTO api_keys (name, prefix, secret_sha256) VALUES ('ci', 'pfx_upgrade', repeat('a', 64))`);
      await before.query(
        `INSERT INTO idempotency_records (api_key_id, idempotency_key, request_sha256, pet_id, response_body, expires_at)
         SELECT 'env-1', 'key-1', $1, id, jsonb_build_object('id', id, 'name', name, 'categoryId', category_id, 'status', status), now() + interval '1 hour'
         FROM pets WHERE name = 'Rex'`,
        [FINGERPRINT],
      );
    } finally {
      await before.destroy();
    }

    const database = new Database(testDatabase!.location, new DatabaseMetrics(new Registry()));
    try {
      await database.onModuleInit();
      const pets = new SqlPetRepository(database);
      const [rex, tom] = await pets.list({ limit: 10 });
      // Columns added since take their defaults: the rows hold at least what they held.
      expect([rex, tom]).toMatchObject([
        { id: expect.any(BigInt), name: 'Rex', categoryId: INT64_MAX, status: 'sold' },
        { id: expect.any(BigInt), name: 'Tom', categoryId: 1n, status: 'available' },
      ]);
      expect(await pets.createOnce({ principal: 'env-1', key: 'key-1', fingerprint: FINGERPRINT }, { ...tom, name: 'Other' }, 60)).toEqual({
        outcome: 'replayed',
        pet: rex,
      });
      expect(await new SqlApiKeyRepository(database).findByPrefix('pfx_upgrade')).toMatchObject({ name: 'ci', revokedAt: null });
      const run = await database.query<{ id: number; name: string }>(MIGRATIONS_RUN, []);
      expect(run.slice(0, history.length)).toEqual(history);
      expect(run.map(({ name }) => name)).toEqual(MIGRATIONS.map(({ name }) => name));
    } finally {
      await database.onApplicationShutdown();
    }
  });
});
