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
 * The lock is held on a connection of its own, outside the pool, whose 1.5 s query time-out would
 * cut the wait short. It is a transaction lock (pg_advisory_xact_lock) in a transaction kept open
 * while the migrations run, not a session lock (pg_advisory_lock): behind a pooler in transaction
 * mode (PgBouncer, as in compose's scale profile) a session lock stays on the server connection
 * after the client has gone, and the next instance to start would wait for it forever. The end of
 * the transaction releases the lock: the commit, or the connection closing when a migration failed
 * or the process died.
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
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_ID]);
    const result = await migrate();
    await client.query('COMMIT');
    return result;
  } finally {
    await client.end();
  }
}
