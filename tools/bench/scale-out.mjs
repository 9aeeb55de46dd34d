// What scaling out gives on this machine, and what PgBouncer costs: the built service as one
// instance and as two (a Node cluster of two workers on one port: the primary hands each new
// connection to the next worker, a load balancer that copies no bytes), each straight on
// PostgreSQL and through PgBouncer in transaction mode (Debian's 1.18, so without named prepared
// statements), with the rate limits in Redis as several instances must count them; plus one
// instance straight on PostgreSQL without named prepared statements, which splits the pooler's
// cost into the statements it forbids and the hop itself. On 10k pets, alternately, median of
// BENCH_REPS runs of BENCH_DURATION s at 64 connections.
import { randomBytes } from 'node:crypto';
import { availableParallelism, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { alternate, formatVariant, runFocusedBench, startService } from './lib/compare.mjs';
import { growTo } from './lib/database.mjs';
import { startPgBouncer } from './lib/pgbouncer.mjs';
import { runCommand } from './lib/processes.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../..');
const REPS = Number(process.env.BENCH_REPS ?? 3);
const SECONDS = Number(process.env.BENCH_DURATION ?? 3);
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const ROWS = 10_000;
const CLUSTER = 'tools/bench/lib/cluster-worker.mjs';
/** As compose's scale profile: 20 server connections, as many as two instances' pools hold straight on PostgreSQL. */
const PGBOUNCER_POOL_SIZE = 20;
const BOOTSTRAP_KEY = `bench-${randomBytes(12).toString('hex')}`;
const CASES = [
  { name: 'list20', request: { kind: 'path', path: '/v1/pets?limit=20' } },
  { name: 'get', request: { kind: 'get', path: '/v1/pets/1', maxId: ROWS } },
];

async function expectRedis() {
  const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 0 });
  try {
    await redis.connect();
    await redis.ping();
  } catch (error) {
    throw new Error(`Redis does not answer at ${REDIS_URL} (BENCH_REDIS_URL): ${error.message}`);
  } finally {
    redis.disconnect();
  }
}

/** The slowest and fastest run: on a shared machine, how far one median can be trusted. */
const spread = (result) => {
  const rps = result.runs.map((run) => run.rps);
  return `runs ${Math.min(...rps).toFixed(0)}–${Math.max(...rps).toFixed(0)} req/s`;
};
const ratio = (a, b) => `x${(a.rps / b.rps).toFixed(2)} req/s, p99 x${(a.p99Ms / b.p99Ms).toFixed(2)}`;

runFocusedBench(ROOT, 'scale', async (tool, databaseUrl) => {
  await expectRedis();
  const pgbouncer = await startPgBouncer(databaseUrl, { poolSize: PGBOUNCER_POOL_SIZE });
  const direct = { DATABASE_URL: databaseUrl, REDIS_URL };
  const pooled = { DATABASE_URL: pgbouncer.url, DATABASE_PREPARED_STATEMENTS: 'false', REDIS_URL };
  const service = (script, env) => startService(ROOT, { script, apiKey: BOOTSTRAP_KEY, env });
  const one = await service(undefined, direct);
  await growTo(databaseUrl, 0, ROWS);
  // An issued key: its per-key count in Redis is this run's own, whatever else the Redis counts.
  const cli = ['dist/tools/keys/main.js', 'create', '--name', 'bench-scale'];
  const apiKey = (
    await runCommand(process.execPath, cli, { cwd: ROOT, env: { PATH: process.env.PATH, DATABASE_URL: databaseUrl } })
  ).trim();
  const oneUnnamed = await service(undefined, { ...direct, DATABASE_PREPARED_STATEMENTS: 'false' });
  const onePooled = await service(undefined, pooled);
  const two = await service(CLUSTER, direct);
  const twoPooled = await service(CLUSTER, pooled);
  const variants = [
    { name: 'one instance, PostgreSQL', url: one.url, apiKey },
    { name: 'one instance, PostgreSQL, unnamed statements', url: oneUnnamed.url, apiKey },
    { name: 'one instance, PgBouncer', url: onePooled.url, apiKey },
    { name: 'two instances, PostgreSQL', url: two.url, apiKey },
    { name: 'two instances, PgBouncer', url: twoPooled.url, apiKey },
  ];
  const load = () =>
    loadavg()
      .map((value) => value.toFixed(2))
      .join(' ');
  console.log(
    `${availableParallelism()} cores shared by wrk, Node, PgBouncer, Redis and PostgreSQL; ${tool}, c64, ${REPS} x ${SECONDS} s, alternating`,
  );
  console.log(
    `Rate limits in Redis (${REDIS_URL}) for every variant; PgBouncer ${PGBOUNCER_POOL_SIZE} server connections; load average ${load()}`,
  );
  const summary = [];
  for (const kase of CASES) {
    const results = await alternate(tool, variants, kase.request, { connections: 64, reps: REPS, seconds: SECONDS });
    for (const result of results) console.log(`${formatVariant(`${kase.name} ${result.name}`, result)}  ${spread(result)}`);
    const [direct1, unnamed1, pooled1, direct2, pooled2] = results;
    summary.push(
      `  ${kase.name.padEnd(7)} two instances over one:  PostgreSQL ${ratio(direct2, direct1)};  PgBouncer ${ratio(pooled2, pooled1)}`,
      `  ${kase.name.padEnd(7)} PgBouncer over PostgreSQL, one instance: ${ratio(pooled1, direct1)} ` +
        `(unnamed statements ${ratio(unnamed1, direct1)}, the hop ${ratio(pooled1, unnamed1)}); two instances: ${ratio(pooled2, direct2)}`,
    );
  }
  console.log(['Ratios (medians):', ...summary, `Load average at the end: ${load()}`].join('\n'));
});
