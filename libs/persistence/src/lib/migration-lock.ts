import type { LoggerService } from '@nestjs/common';
import { Client } from 'pg';
import { setTimeout } from 'node:timers/promises';
import type { DataSource, Migration } from 'typeorm';

/** The migrations' advisory lock, "petstore" in ASCII as an int64: every instance and version must take this one, forever. */
export const MIGRATION_LOCK_ID = '8099007544119226981';

const CONNECT_TIMEOUT_MS = 1500;

/** Runs `migrate` under the migration lock: TypeORM takes none, and instances migrating at once fail on each other's tables. */
export async function withMigrationLock<T>(url: string, migrate: () => Promise<T>): Promise<T> {
  // Outside the pool (its time-outs would cut the wait short); why a transaction lock: docs/operations.md, "Databases and migrations".
  const client = new Client({
    connectionString: url,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    application_name: 'petstore-migrations',
  });
  // A lost connection releases the lock early; it must not also crash the process as an unhandled 'error'.
  client.on('error', () => undefined);
  await client.connect();
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_ID]);
    const result = await migrate();
    await client.query('COMMIT');
    return result;
  } finally {
    await client.end();
  }
}

/** Tries before the start fails (then the orchestrator's restart tries again), and the pause between two. */
export const MIGRATION_LOCK_TRIES = { attempts: 20, pauseMs: 1000 };

/**
 * Runs the pending migrations, again while one gives up on a table's lock (lock_not_available, after MIGRATION_LOCK_TIMEOUT_MS):
 * a migration waits for a quiet moment on a busy table, instead of the table's requests waiting behind it.
 */
export async function migrateWhenLocksAllow(
  dataSource: DataSource,
  logger: Pick<LoggerService, 'warn'>,
  { attempts, pauseMs } = MIGRATION_LOCK_TRIES,
): Promise<Migration[]> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await dataSource.runMigrations({ transaction: 'each' });
    } catch (error) {
      if (!isLockNotAvailable(error) || attempt >= attempts) throw error;
      logger.warn(`A migration gave up waiting for a table's lock (try ${attempt} of ${attempts}): trying again in ${pauseMs} ms`);
      await setTimeout(pauseMs);
    }
  }
}

// PostgreSQL's lock_not_available, as pg reports it or as TypeORM wraps it.
function isLockNotAvailable(error: unknown): boolean {
  const failure = error as { code?: unknown; driverError?: { code?: unknown } } | null;
  return failure?.code === '55P03' || failure?.driverError?.code === '55P03';
}
