import { readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { Client } from 'pg';
import { describeOn, target } from './support/api';
import { DelayingProxy } from './support/delaying-proxy';
import { AUTH, databaseEnv, type RunningServer, startServer, testDatabaseUrl } from './support/server';

/** The service's migrations, one file each (index.ts lists them). */
const MIGRATIONS_DIR = resolve(__dirname, '../../../libs/persistence/src/lib/migrations');
const MIGRATION_COUNT = readdirSync(MIGRATIONS_DIR).filter((name) => /^\d+-.+\.ts$/.test(name)).length;

/** What TypeORM and the service print when a migration or the start-up fails. */
const MIGRATION_ERROR = /query failed|QueryFailedError|failed to start|migration.*fail|error:/i;

const INSTANCES = 3;
/**
 * Each way, per chunk: a database 2 × 30 ms away makes the migrations take over a second (some
 * fifteen round trips), so that instances started together, whose starts spread over a second or
 * two on a busy machine, meet in them; on a database next door they would take milliseconds and
 * the instances could miss one another.
 */
const NETWORK_DELAY_MS = 30;

describeOn('postgres', 'pooled')('migrations when several instances start at once', () => {
  it(`run once, and all ${INSTANCES} instances on an empty database become ready`, async () => {
    // A database of its own: the migrations must meet an empty one.
    const server = new URL(testDatabaseUrl(target));
    const database = `petstore_migrations_test_${process.pid}_${Date.now()}`;
    const admin = new Client({ connectionString: server.toString() });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${database}`);
    const url = new URL(server);
    url.pathname = `/${database}`;
    // The instances reach it as the target's services do: straight, or through PgBouncer in
    // transaction mode (the pooled target), whose `*` entry serves any database.
    const targetEnv = databaseEnv(target);
    const reached = new URL(targetEnv.DATABASE_URL);
    reached.pathname = `/${database}`;
    const proxy = new DelayingProxy({ host: reached.hostname, port: Number(reached.port || 5432) }, NETWORK_DELAY_MS);
    let servers: RunningServer[] = [];
    try {
      const remote = new URL(reached);
      remote.host = `127.0.0.1:${await proxy.open()}`;
      const env = { ...targetEnv, DATABASE_URL: remote.toString() };
      const started = await Promise.allSettled(Array.from({ length: INSTANCES }, () => startServer(env, 90_000)));
      servers = started.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
      expect(started.flatMap((result) => (result.status === 'rejected' ? [String(result.reason)] : []))).toEqual([]);
      for (const instance of servers) {
        expect((await fetch(`${instance.url}/healthz`)).status).toBe(200);
        expect((await fetch(`${instance.url}/v1/pets`, { headers: AUTH })).status).toBe(200);
        expect(instance.output()).not.toMatch(MIGRATION_ERROR);
      }
      const migrations = new Client({ connectionString: url.toString() });
      await migrations.connect();
      try {
        const { rows } = await migrations.query<{ name: string }>('SELECT name FROM migrations ORDER BY id');
        expect(rows).toHaveLength(MIGRATION_COUNT);
        expect(new Set(rows.map((row) => row.name)).size).toBe(MIGRATION_COUNT);
      } finally {
        await migrations.end();
      }
    } finally {
      await Promise.all(servers.map((instance) => instance.stop()));
      await proxy.close();
      await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
      await admin.end();
    }
  }, 180_000);
});
