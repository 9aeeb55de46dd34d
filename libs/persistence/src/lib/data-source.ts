import { types } from 'pg';
import { DataSource } from 'typeorm';
import type { PostgresDataSourceOptions } from 'typeorm/driver/postgres/PostgresDataSourceOptions';
import { embeddedDatabaseOptions } from './embedded-database';
import { ENTITIES } from './entities';
import type { StatementDeadlines } from './pg-statement-runner';
import { MIGRATIONS } from './migrations';
import { NestTypeOrmLogger } from './typeorm-logger';

/**
 * Where the data lives: a PostgreSQL server, the embedded PGlite database in a directory, or PGlite
 * in memory loaded from a database's tarball (tests: gone when closed, nothing on disk to lock).
 */
export type DatabaseLocation =
  { readonly url: string; readonly preparedStatements: boolean } | { readonly dataDir: string } | { readonly tarball: Blob };

const INT8_OID = 20;

/**
 * How long a request waits on PostgreSQL (docs/operations.md, "A database that cannot serve"): a
 * 503 when it cannot be served, and then the statement is over on the server too. The server's own
 * limit comes first, so that it, not the client, ends a statement that waits on a lock or runs long.
 */
export const STATEMENT_DEADLINES: StatementDeadlines = { connectMs: 1000, serverMs: 750, answerMs: 1000, cancelGraceMs: 250 };

/** The serving pool: at most `max` backends, each statement bounded on the server (statement and lock time-outs). */
const POOL = {
  max: 10,
  // int8 straight to bigint, as PGlite gives it: pg's default makes a string (after a regex test)
  // that toPet then parses again, 200 times for a page of 100.
  types: {
    getTypeParser: (oid: number, format?: 'text' | 'binary') =>
      oid === INT8_OID ? BigInt : (types.getTypeParser(oid, format) as (value: string) => unknown),
  },
  connectionTimeoutMillis: STATEMENT_DEADLINES.connectMs,
  statement_timeout: STATEMENT_DEADLINES.serverMs,
  lock_timeout: STATEMENT_DEADLINES.serverMs,
  idleTimeoutMillis: 30_000,
  keepAlive: true,
  application_name: 'petstore',
};

/** Migrations run once at start on a connection of their own, without the serving pool's time limits. */
const MIGRATION_POOL = { max: 1, connectionTimeoutMillis: STATEMENT_DEADLINES.connectMs, application_name: 'petstore-migrations' };

/**
 * The DataSource of the service, for PostgreSQL and PGlite alike: the entities, which are the
 * schema's source, and the migrations, generated from them (docs/development.md, "Migrations").
 * TypeORM's CLI takes it too (migration-data-source.ts).
 */
export async function createDataSource(location: DatabaseLocation, use: 'serving' | 'migrating' = 'serving'): Promise<DataSource> {
  const common: Omit<PostgresDataSourceOptions, 'url' | 'driver' | 'extra'> = {
    type: 'postgres',
    entities: ENTITIES,
    migrations: MIGRATIONS,
    migrationsTransactionMode: 'each',
    synchronize: false,
    logger: new NestTypeOrmLogger(),
  };
  if ('url' in location) {
    return new DataSource({ ...common, url: location.url, extra: use === 'serving' ? POOL : MIGRATION_POOL });
  }
  const { PGliteDriver } = await import('typeorm-pglite');
  const driver = new PGliteDriver(await embeddedDatabaseOptions(location)).driver;
  return new DataSource({ ...common, driver });
}

/** What the repositories need of the driver's pool: node-postgres's Pool, or typeorm-pglite's equivalent. */
export interface QueryablePool {
  query(config: { name: string; text: string; values: unknown[] } | string, values?: unknown[]): Promise<{ rows: unknown[] }>;
}

/**
 * The pool under an initialized DataSource, for queries that bypass TypeORM (one round trip,
 * no query building). TypeORM keeps it in its driver's `master` field on PostgreSQL and PGlite
 * alike, which is not public API: this is the one place that reaches for it, checked at start,
 * so that a TypeORM upgrade that moves it stops the service at once (and every e2e run, on both
 * databases) instead of failing its first request.
 */
export function driverPool(dataSource: DataSource): QueryablePool {
  const pool = (dataSource.driver as unknown as { master?: Partial<QueryablePool> }).master;
  if (typeof pool?.query !== 'function') throw new Error("TypeORM's driver keeps no queryable pool in `master`: update driverPool");
  return pool as QueryablePool;
}
