// Test helpers of the persistence lib (`@petstore/persistence/testing`), kept out of the service's barrel.
import { randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';
import { Client } from 'pg';
import { Registry } from 'prom-client';
import type { DatabaseLocation } from './lib/data-source';
import { Database } from './lib/database';
import { DatabaseMetrics } from './lib/database-metrics';
import { createEmbeddedTemplate, embeddedTemplateDir } from './lib/embedded-database';

/** A database a test file owns, and how to get rid of it. */
export interface TestDatabase {
  readonly location: DatabaseLocation;
  drop(): Promise<void>;
}

/** Read once per test file: the tarball every embedded test database is loaded from (see createTestDatabase). */
let tarball: Promise<Blob> | undefined;

/**
 * The template `npm run build` makes (made here when missing) as one tarball beside it (PGlite's
 * dumpDataDir of a copy), made by the first test that needs it: tests only, so not by the build,
 * whose node_modules the image copies. Renamed into place whole, whichever test file makes it.
 */
async function templateTarball(): Promise<Blob> {
  await createEmbeddedTemplate();
  const path = `${embeddedTemplateDir()}.tar`;
  if (!existsSync(path)) {
    const scratch = mkdtempSync(`${path}.new-`);
    try {
      cpSync(embeddedTemplateDir(), scratch, { recursive: true });
      const { PGlite } = await import('@electric-sql/pglite');
      const database = await PGlite.create({ dataDir: scratch });
      const dump = await database.dumpDataDir('none');
      await database.close();
      writeFileSync(`${scratch}.tar`, Buffer.from(await dump.arrayBuffer()));
      renameSync(`${scratch}.tar`, path);
    } finally {
      rmSync(scratch, { recursive: true, force: true });
      rmSync(`${scratch}.tar`, { force: true });
    }
  }
  return new Blob([readFileSync(path)]);
}

/**
 * Embedded PGlite in memory, loaded from the tarball of the template `npm run build` makes
 * (templateTarball), so that a test database opens as a restart does instead of running initdb in
 * WebAssembly, with nothing on disk to copy or remove. Or, when TEST_DATABASE_URL names a
 * PostgreSQL database (whose name must contain "test"), a new database on that server, dropped by
 * `drop`. Either way each test file starts empty, in parallel with the others.
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) {
    // A test's database lives for seconds: V8's baseline compiler alone for PGlite's WebAssembly,
    // whose optimizing compiles never pay back in that time (as the e2e suite's servers: docs/development.md, "Test run time").
    setFlagsFromString('--liftoff-only');
    tarball ??= templateTarball();
    return { location: { tarball: await tarball }, drop: () => Promise.resolve() };
  }
  const url = new URL(serverUrl);
  const base = url.pathname.slice(1);
  if (!base.includes('test')) throw new Error(`Refusing to run tests against database "${base}": its name lacks "test"`);
  const name = `${base}_${randomBytes(6).toString('hex')}`;
  await onServer(serverUrl, `CREATE DATABASE "${name}"`);
  url.pathname = `/${name}`;
  return {
    location: { url: url.toString(), preparedStatements: true },
    drop: () => onServer(serverUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`),
  };
}

async function onServer(url: string, statement: string): Promise<void> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/** A Database connected to a test database of its own and migrated, for the repositories' tests; `close` drops it. */
export async function openTestDatabase(): Promise<{ database: Database; close: () => Promise<void> }> {
  const testDatabase = await createTestDatabase();
  const database = new Database(testDatabase.location, new DatabaseMetrics(new Registry()));
  try {
    await database.onModuleInit();
  } catch (error) {
    await database.onApplicationShutdown().catch(() => undefined);
    await testDatabase.drop();
    throw error;
  }
  return {
    database,
    close: async () => {
      await database.onApplicationShutdown();
      await testDatabase.drop();
    },
  };
}
