import { types } from 'pg';
import { DataSource } from 'typeorm';
import type { PostgresDataSourceOptions } from 'typeorm/driver/postgres/PostgresDataSourceOptions';
import { embeddedDatabaseOptions } from './embedded-database';
import { MIGRATIONS } from './migrations';

/** Where the data lives: a PostgreSQL server, or the embedded PGlite database in a directory. */
export type DatabaseLocation = { readonly url: string; readonly preparedStatements: boolean } | { readonly dataDir: string };

const INT8_OID = 20;

/**
 * Bounds how long a request waits on an unreachable database, so it fails with 503 within 2 s
 * (a refused connection fails at once; a silent network at the time-out), while leaving a
 * saturated pool time to hand out a connection before the request is shed with 503.
 */
const POOL = {
  max: 10,
  // int8 straight to bigint, as PGlite gives it: pg's default makes a string (after a regex test)
  // that toPet then parses again, 200 times for a page of 100.
  types: { getTypeParser: (oid: number, format?: 'text' | 'binary') => (oid === INT8_OID ? BigInt : types.getTypeParser(oid, format)) },
  connectionTimeoutMillis: 1500,
  query_timeout: 1500,
  idleTimeoutMillis: 30_000,
  keepAlive: true,
  application_name: 'petstore',
};

/**
 * The DataSource of the service, for PostgreSQL and PGlite alike: the connection and the same
 * migrations. New migrations are written by hand (there is no entity to diff) and appended to MIGRATIONS.
 */
export async function createDataSource(location: DatabaseLocation): Promise<DataSource> {
  const common: Omit<PostgresDataSourceOptions, 'url' | 'driver' | 'extra'> = {
    type: 'postgres',
    // No entities: migrations own the schema and the repositories run their own SQL.
    entities: [],
    migrations: MIGRATIONS,
    migrationsTransactionMode: 'each',
    synchronize: false,
    logging: ['error', 'warn', 'migration'],
  };
  if ('url' in location) {
    return new DataSource({ ...common, url: location.url, extra: POOL });
  }
  const { PGliteDriver } = await import('typeorm-pglite');
  const driver = new PGliteDriver(await embeddedDatabaseOptions(location.dataDir)).driver;
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
