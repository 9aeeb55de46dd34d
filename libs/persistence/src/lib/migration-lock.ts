import { Client } from 'pg';

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
