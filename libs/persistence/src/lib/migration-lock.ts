import { Client } from 'pg';

/**
 * The PostgreSQL advisory lock that serializes migrations: "petstore" in ASCII read as a
 * big-endian int64 (0x706574_73746f7265). Fixed for good: every instance and every version of
 * the service must take the same one, and nothing else in the database may use it.
 */
export const MIGRATION_LOCK_ID = '8099007544119226981';

/** How long connecting for the lock may take, as for the pool's connections. */
const CONNECT_TIMEOUT_MS = 1500;

/**
 * Runs `migrate` while holding the migration lock, so that instances starting together on an
 * empty database migrate one after the other: TypeORM takes no lock, and two instances running
 * the same migration at once fail on each other's tables. The ones that wait find the migrations
 * done and run none.
 *
 * The lock is a session lock on a connection of its own, outside the pool: the pool's 1.5 s query
 * time-out would cut the wait short, and a session lock belongs to one connection. Closing the
 * connection releases it, also when the process dies mid-migration.
 */
export async function withMigrationLock<T>(url: string, migrate: () => Promise<T>): Promise<T> {
  const client = new Client({
    connectionString: url,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    application_name: 'petstore-migrations',
  });
  // Losing this connection while `migrate` runs releases the lock early (then a second instance may
  // meet the migrations, as without the lock); it must not also crash the process as an unhandled 'error'.
  client.on('error', () => undefined);
  await client.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
    return await migrate();
  } finally {
    await client.end();
  }
}
