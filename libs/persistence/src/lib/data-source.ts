import * as pg from 'pg';
import { DataSource } from 'typeorm';
import type { PostgresDataSourceOptions } from 'typeorm/driver/postgres/PostgresDataSourceOptions';
import { embeddedDatabaseOptions } from './embedded-database';
import { ENTITIES } from './entities';
import { EXACT_INT8, type StatementDeadlines } from './pg-statement-runner';
import { MIGRATIONS } from './migrations';
import { PGlitePool, pgliteDriver } from './pglite-pool';
import { NestTypeOrmLogger } from './typeorm-logger';

/** A PostgreSQL server, PGlite in a directory, or PGlite in memory from a tarball (tests: nothing on disk to lock). */
export type DatabaseLocation =
  { readonly url: string; readonly preparedStatements: boolean } | { readonly dataDir: string } | { readonly tarball: Blob };

/** How long a request waits on PostgreSQL (docs/operations.md, "A database that cannot serve"); the server's own limit ends first. */
export const STATEMENT_DEADLINES: StatementDeadlines = { connectMs: 1000, serverMs: 750, answerMs: 1000, cancelGraceMs: 250 };

/** The serving pool's settings on PostgreSQL. */
const POOL = {
  max: 10,
  types: EXACT_INT8,
  connectionTimeoutMillis: STATEMENT_DEADLINES.connectMs,
  statement_timeout: STATEMENT_DEADLINES.serverMs,
  lock_timeout: STATEMENT_DEADLINES.serverMs,
  idleTimeoutMillis: 30_000,
  keepAlive: true,
  application_name: 'petstore',
};

/**
 * How long a migration's statement waits for a table's lock before it gives up, to be tried again (migrateWhenLocksAllow):
 * less than a serving statement waits, so those queued behind its request are served (docs/operations.md, "Changing the schema").
 */
export const MIGRATION_LOCK_TIMEOUT_MS = 500;

/** Migrations run once at start on a connection of their own, without the serving pool's statement time limit. */
const MIGRATION_POOL = {
  max: 1,
  connectionTimeoutMillis: STATEMENT_DEADLINES.connectMs,
  lock_timeout: MIGRATION_LOCK_TIMEOUT_MS,
  application_name: 'petstore-migrations',
};

/** The pool the service's statements run on, made and ended by the application: pg's, or one PGlite (docs/decisions/0006). */
export async function createPool(location: DatabaseLocation): Promise<pg.Pool | PGlitePool> {
  if ('url' in location) return new pg.Pool({ connectionString: location.url, ...POOL });
  return new PGlitePool(await embeddedDatabaseOptions(location));
}

/**
 * TypeORM's DataSource, which migrates (and is TypeORM's CLI's: docs/decisions/0005-entities-and-migrations.md). On PostgreSQL,
 * a connection of its own; on PGlite, which has one session, the application's pool when it is given.
 */
export async function createDataSource(
  location: DatabaseLocation,
  {
    embedded,
    migrations = MIGRATIONS,
  }: { readonly embedded?: PGlitePool; readonly migrations?: PostgresDataSourceOptions['migrations'] } = {},
): Promise<DataSource> {
  const common: Omit<PostgresDataSourceOptions, 'url' | 'driver' | 'extra'> = {
    type: 'postgres',
    entities: ENTITIES,
    migrations,
    migrationsTransactionMode: 'each',
    synchronize: false,
    logger: new NestTypeOrmLogger(),
  };
  if ('url' in location) return new DataSource({ ...common, url: location.url, extra: MIGRATION_POOL });
  return new DataSource({ ...common, driver: pgliteDriver(embedded ?? new PGlitePool(await embeddedDatabaseOptions(location))) });
}
