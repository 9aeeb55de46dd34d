import { Inject, Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { makeTreePrivate, preparePrivateDataDir } from '@petstore/data-dir';
import { StoreUnavailableError, WriteOutcomeUnknownError } from '@petstore/domain';
import { resolve } from 'node:path';
import type { Pool } from 'pg';
import type { Migration } from 'typeorm';
import { isLinkFailure, isRefusal, StatementOutcomeUnknownError } from './database-errors';
import { lockDataDir } from './data-dir-lock';
import { createDataSource, createPool, type DatabaseLocation, STATEMENT_DEADLINES } from './data-source';
import type { QueryablePool } from './driver-pool';
import { DatabaseMetrics } from './database-metrics';
import { EMBEDDED_DATABASE_NAME, seedEmbeddedDatabase } from './embedded-database';
import { migrateWhenLocksAllow, withMigrationLock } from './migration-lock';
import { PgStatementRunner } from './pg-statement-runner';
import { PGlitePool, withStatementSpans } from './pglite-pool';
import { Statement } from './named-statement';

/** Injection token of the DatabaseLocation the service runs on. */
export const DATABASE_LOCATION = Symbol('DATABASE_LOCATION');

/** The service's database: its own pool, on which TypeORM migrates at start and every statement runs, one round trip each. */
@Injectable()
export class Database implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(Database.name);
  private ownPool?: Pool | PGlitePool;
  private readonly named: boolean;
  private pool!: QueryablePool;
  private runner?: PgStatementRunner;
  private unlockDataDir?: () => void;
  private unreportPool?: () => void;
  /** This application's statements by name (a name is one statement per connection in PostgreSQL), each with its duration series. */
  private readonly statements = new Map<string, { readonly statement: Statement; readonly observe: (seconds: number) => void }>();

  constructor(
    @Inject(DATABASE_LOCATION) private readonly location: DatabaseLocation,
    private readonly metrics: DatabaseMetrics,
  ) {
    // PGlite has one session and no statement cache; PgBouncer before 1.21 cannot keep them across transactions.
    this.named = 'url' in location && location.preparedStatements;
    this.declare([READ_ONLY]);
  }

  /** Declares a repository's statements, as it is made; a name given to two statements stops the start, naming the fix. */
  declare(statements: readonly Statement[]): void {
    for (const statement of statements) {
      const known = this.statements.get(statement.name);
      if (known?.statement === statement) continue;
      if (known !== undefined) {
        throw new Error(`The statement name "${statement.name}" is given to two different statements: give each a name of its own`);
      }
      this.statements.set(statement.name, { statement, observe: this.metrics.queryDurationOf(statement.name) });
    }
  }

  /** Connects and brings the schema up to date before the service takes requests. */
  async onModuleInit(): Promise<void> {
    this.logger.log(`Database: ${describeLocation(this.location)}`);
    if ('dataDir' in this.location) {
      preparePrivateDataDir(this.location.dataDir, (message) => this.logger.warn(message));
      this.unlockDataDir = lockDataDir(this.location.dataDir);
      if (seedEmbeddedDatabase(this.location.dataDir))
        this.logger.log('New embedded database: copied from the template made at build time');
    }
    const pool = await createPool(this.location);
    this.ownPool = pool;
    await this.migrate(pool);
    if (pool instanceof PGlitePool) {
      // On PostgreSQL, instrumentation-pg traces the statements: PGlite's need spans of our own.
      this.pool = withStatementSpans(pool, EMBEDDED_DATABASE_NAME);
    } else {
      // An idle connection the server drops (a restart, a terminated backend) is reported here; unheard, it would end the process.
      pool.on('error', (error) => this.logger.warn(`A database connection in the pool failed: ${error.message}`));
      this.runner = new PgStatementRunner(pool, STATEMENT_DEADLINES);
      this.pool = this.runner;
    }
    this.unreportPool = this.metrics.reportPool(pool);
    this.makeEmbeddedFilesPrivate();
  }

  /** Runs after the HTTP server has finished its in-flight requests. */
  async onApplicationShutdown(): Promise<void> {
    this.unreportPool?.();
    this.runner?.close();
    await this.ownPool?.end();
    this.makeEmbeddedFilesPrivate();
    this.unlockDataDir?.();
    this.unlockDataDir = undefined;
  }

  private async migrate(pool: Pool | PGlitePool): Promise<void> {
    const applied = await this.runMigrations(pool);
    this.logger.log(
      applied.length === 0 ? 'Migrations: none pending' : `Migrations: applied ${applied.map((migration) => migration.name).join(', ')}`,
    );
  }

  private async runMigrations(pool: Pool | PGlitePool): Promise<Migration[]> {
    if (pool instanceof PGlitePool) {
      // PGlite has one session: TypeORM migrates on the application's pool, which it must not end.
      const migrating = await createDataSource(this.location, { embedded: pool });
      await migrating.initialize();
      return migrating.runMigrations({ transaction: 'each' });
    }
    const { url } = this.location as { readonly url: string };
    const migrating = await createDataSource(this.location);
    try {
      await migrating.initialize();
      return await withMigrationLock(url, () => migrateWhenLocksAllow(migrating, this.logger));
    } catch (error) {
      if (!isMissingDatabase(error)) throw error;
      throw new Error(`The ${describeLocation(this.location)} does not exist: create it first (createdb, or CREATE DATABASE)`);
    } finally {
      if (migrating.isInitialized) await migrating.destroy();
    }
  }

  // Emscripten chmods PGlite's files to modes asked in WebAssembly (0666, 0644), whatever our umask: fixed once open, once closed.
  private makeEmbeddedFilesPrivate(): void {
    // Only while this process holds the directory: never under another process's database.
    if (this.unlockDataDir && 'dataDir' in this.location) makeTreePrivate(this.location.dataDir);
  }

  /** One statement's rows. StoreUnavailableError: unreachable or refused, nothing done; WriteOutcomeUnknownError: a write's answer lost. */
  async query<Row>(statement: Statement, values: unknown[]): Promise<Row[]> {
    const declared = this.statements.get(statement.name);
    if (declared?.statement !== statement && !statement.adHoc) {
      throw new Error(`The statement "${statement.name}" was never declared: add it to its repository's database.declare([…])`);
    }
    const started = performance.now();
    try {
      const result =
        this.named && statement.prepare ? await this.pool.query(statement, values) : await this.pool.query(statement.text, values);
      return result.rows as Row[];
    } catch (error) {
      throw domainErrorFor(error, statement);
    } finally {
      declared?.observe((performance.now() - started) / 1000);
    }
  }

  /** Whether the database takes writes now; rejects with StoreUnavailableError when it cannot be reached. */
  async acceptsWrites(): Promise<boolean> {
    const [row] = await this.query<{ readOnly: boolean }>(READ_ONLY, []);
    return !row.readOnly;
  }
}

// A replica in recovery, default_transaction_read_only or a read-only session all show here.
const READ_ONLY = Statement.named('read_only', `SELECT current_setting('transaction_read_only') = 'on' AS "readOnly"`);

function domainErrorFor(error: unknown, statement: Statement): unknown {
  if (error instanceof StatementOutcomeUnknownError && statement.mayWrite) return new WriteOutcomeUnknownError({ cause: error });
  if (error instanceof StatementOutcomeUnknownError || isRefusal(error) || isLinkFailure(error))
    return new StoreUnavailableError({ cause: error });
  return error;
}

/** Where the data is, for the start's log line and errors: never the URL's password. */
function describeLocation(location: DatabaseLocation): string {
  if ('dataDir' in location) return `embedded PostgreSQL (PGlite) in ${resolve(location.dataDir)}`;
  if (!('url' in location)) return 'embedded PostgreSQL (PGlite) in memory';
  const url = new URL(location.url);
  return `PostgreSQL database "${decodeURIComponent(url.pathname.slice(1)) || url.username}" at ${url.hostname}:${url.port || 5432}`;
}

/** PostgreSQL's invalid_catalog_name: the URL names a database the server does not have. */
function isMissingDatabase(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === '3D000';
}
