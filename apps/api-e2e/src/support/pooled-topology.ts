import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { Redis } from 'ioredis';
import { Client } from 'pg';
import { type RunningPgBouncer, startPgBouncer } from './pgbouncer';
import { RoundRobinProxy } from './round-robin-proxy';
import { databaseEnv, type RunningServer, startServer } from './server';

/** The PostgreSQL server the pooled target creates its database on (its maintenance database). */
const ADMIN_URL = process.env.E2E_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
/**
 * The Redis the two instances share, as in CI's other Redis tests. Not in a namespace of the run's
 * own: the service has no setting for one (its keys are petstore:rate-limit:<policy>:<client>).
 * The suite draws about 200 a minute of the test key's 6000 and 30 of 127.0.0.1's 600 failed
 * authentications, so runs at the same time, or one after the other, leave each other room.
 */
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const INSTANCES = 2;

/**
 * The scale-out topology of compose's `scale` profile, run natively: a fresh PostgreSQL database,
 * PgBouncer in transaction mode in front of it, two instances of the built service on it through
 * PgBouncer (DATABASE_PREPARED_STATEMENTS=false: Debian's 1.18 cannot keep named prepared
 * statements) sharing rate limits through Redis, and a TCP load balancer alternating connections
 * between them, whose URL the suite's shared-server tests use.
 */
export interface PooledTopology {
  /** The load balancer: what the tests call. */
  readonly url: string;
  readonly instances: readonly RunningServer[];
  /** Stops everything, drops the database, and returns how many connections each instance was handed. */
  stop(): Promise<number[]>;
}

/** Sets E2E_POOLED_DATABASE_URL (the database itself) and E2E_POOLED_PGBOUNCER_URL (through PgBouncer) for the tests. */
export async function startPooledTopology(): Promise<PooledTopology> {
  await expectRedis();
  const database = `petstore_pooled_test_${Date.now()}_${process.pid}`;
  const cleanup = new Cleanup(database);
  try {
    await admin((client) => client.query(`CREATE DATABASE ${database}`));
    cleanup.created = true;
    const direct = new URL(ADMIN_URL);
    direct.pathname = `/${database}`;
    const pgbouncer = await startPgBouncer(direct.toString());
    cleanup.pgbouncer = pgbouncer;
    process.env.E2E_POOLED_DATABASE_URL = direct.toString();
    process.env.E2E_POOLED_PGBOUNCER_URL = pgbouncer.urlOf(database);

    // Started together on the empty database: they meet in the migrations, through PgBouncer.
    const env = () => ({ ...databaseEnv('pooled'), REDIS_URL });
    const started = await Promise.allSettled(Array.from({ length: INSTANCES }, () => startServer(env())));
    cleanup.instances = started.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
    const failed = started.flatMap((result) => (result.status === 'rejected' ? [String(result.reason)] : []));
    if (failed.length > 0) throw new Error(`An instance did not start through PgBouncer:\n${failed.join('\n')}\n${pgbouncer.output()}`);

    const front = await RoundRobinProxy.inFrontOf(cleanup.instances.map((instance) => instance.url));
    cleanup.front = front;
    return { url: front.url, instances: cleanup.instances, stop: () => cleanup.run() };
  } catch (error) {
    await cleanup.run();
    throw error;
  }
}

async function admin<T>(work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

async function expectRedis(): Promise<void> {
  const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 0 });
  try {
    await redis.connect();
    await redis.ping();
  } catch (error) {
    throw new Error(`The pooled target's instances share Redis at ${REDIS_URL} (TEST_REDIS_URL), which does not answer: ${String(error)}`);
  } finally {
    redis.disconnect();
  }
}

/**
 * Tears the topology down in reverse order, once: after the suite, after a failed start, and as a
 * last resort when the process exits or is interrupted without either (children killed, the
 * database dropped by a synchronous child process).
 */
class Cleanup {
  created = false;
  pgbouncer?: RunningPgBouncer;
  instances: RunningServer[] = [];
  front?: RoundRobinProxy;
  private done = false;
  private readonly onExit = () => this.runSync();
  private readonly onSignal = (signal: NodeJS.Signals) => {
    this.runSync();
    process.kill(process.pid, signal);
  };

  constructor(private readonly database: string) {
    process.once('exit', this.onExit);
    for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.once(signal, this.onSignal);
  }

  async run(): Promise<number[]> {
    if (this.done) return [];
    this.done = true;
    this.unregister();
    const connections = this.front ? [...this.front.connections] : [];
    await this.front?.close();
    await Promise.all(this.instances.map((instance) => instance.stop()));
    await this.pgbouncer?.stop();
    if (this.created) await admin((client) => client.query(`DROP DATABASE IF EXISTS ${this.database} WITH (FORCE)`));
    return connections;
  }

  private runSync(): void {
    if (this.done) return;
    this.done = true;
    this.unregister();
    for (const instance of this.instances) instance.process.kill('SIGKILL');
    this.pgbouncer?.stopNow();
    if (!this.created) return;
    const drop = `const { Client } = require('pg'); const c = new Client({ connectionString: process.argv[1] });
      c.connect().then(() => c.query('DROP DATABASE IF EXISTS ${this.database} WITH (FORCE)')).finally(() => c.end());`;
    spawnSync(process.execPath, ['-e', drop, ADMIN_URL], { cwd: resolve(__dirname, '../../../..'), stdio: 'inherit', timeout: 10_000 });
  }

  private unregister(): void {
    process.removeListener('exit', this.onExit);
    for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.removeListener(signal, this.onSignal);
  }
}
