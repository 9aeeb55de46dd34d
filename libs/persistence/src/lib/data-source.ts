import * as pg from 'pg';
import { DataSource } from 'typeorm';
import type { PostgresDataSourceOptions } from 'typeorm/driver/postgres/PostgresDataSourceOptions';
import { withPoolKept } from './driver-pool';
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
      oid === INT8_OID ? BigInt : (pg.types.getTypeParser(oid, format) as (value: string) => unknown),
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
    const extra = use === 'serving' ? POOL : MIGRATION_POOL;
    return new DataSource({ ...common, url: location.url, extra, driver: withPoolKept(pg) });
  }
  const { PGliteDriver } = await import('typeorm-pglite');
  const driver = withPoolKept(new PGliteDriver(await embeddedDatabaseOptions(location)).driver);
  return new DataSource({ ...common, driver });
}
