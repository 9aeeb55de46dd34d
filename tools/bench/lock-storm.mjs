// npm run bench:lock: creates against a table locked by another session (LOCK TABLE pets IN ACCESS
// EXCLUSIVE MODE) for BENCH_LOCK_SECONDS (40), from 16 clients, on a throw-away PostgreSQL database.
// Reports the answers, their latency, how many of those pets exist once the lock is released
// (must be 0) and the most backends the service held (must not pass its pool). Needs `npm run build`.
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { startService } from './lib/compare.mjs';
import { stop } from './lib/processes.mjs';

const { Client } = createRequire(import.meta.url)('pg');
const LOCK_SECONDS = Number(process.env.BENCH_LOCK_SECONDS ?? 40);
const CLIENTS = 16;
const KEY = 'bench-lock-storm-key-0123456789';
const ROOT = resolve(import.meta.dirname, '../..');
const serverUrl = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

const database = `petstore_lock_storm_test_${process.pid}`;
const admin = new Client({ connectionString: serverUrl });
await admin.connect();
await admin.query(`CREATE DATABASE ${database}`);
const url = Object.assign(new URL(serverUrl), { pathname: `/${database}` }).toString();
let service;
try {
  const started = await startService(ROOT, { apiKey: KEY, env: { DATABASE_URL: url }, readyPath: '/readyz' });
  service = started.child;
  const base = started.url;
  const backends = async (state = null) =>
    (
      await admin.query(
        `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1 AND application_name = 'petstore' AND ($2::text IS NULL OR state = $2)`,
        [database, state],
      )
    ).rows[0].n;

  const locker = new Client({ connectionString: url });
  await locker.connect();
  await locker.query('BEGIN');
  await locker.query('LOCK TABLE pets IN ACCESS EXCLUSIVE MODE');
  const lockedUntil = Date.now() + LOCK_SECONDS * 1000;
  const names = [];
  const latencies = [];
  const statuses = {};
  let mostBackends = 0;
  const sampling = (async () => {
    while (Date.now() < lockedUntil) mostBackends = Math.max(mostBackends, await backends());
  })();
  const createUntilUnlocked = async () => {
    while (Date.now() < lockedUntil) {
      const name = `LockStorm-${names.length}`;
      names.push(name);
      const started = performance.now();
      const response = await fetch(`${base}/v1/pets`, {
        method: 'POST',
        headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name, categoryId: 1 }),
      });
      await response.arrayBuffer();
      latencies.push(performance.now() - started);
      statuses[response.status] = (statuses[response.status] ?? 0) + 1;
    }
  };
  await Promise.all([sampling, ...Array.from({ length: CLIENTS }, createUntilUnlocked)]);
  await locker.query('ROLLBACK');
  await locker.end();
  // Anything still running on the server would commit now: wait until nothing is.
  while ((await backends('active')) > 0) await sleep(20);
  const written = await countWritten(url, names);
  latencies.sort((a, b) => a - b);
  const at = (q) => Math.round(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]);
  console.log(`lock held ${LOCK_SECONDS} s; ${names.length} creates from ${CLIENTS} clients; answers ${JSON.stringify(statuses)}`);
  console.log(`latency ms: p50 ${at(0.5)}, p99 ${at(0.99)}, max ${at(1)}`);
  console.log(`pets of those creates in the table after the lock: ${written} (must be 0)`);
  console.log(`most backends the service held: ${mostBackends}`);
} finally {
  if (service) await stop(service);
  await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
  await admin.end();
}

async function countWritten(databaseUrl, names) {
  const reader = new Client({ connectionString: databaseUrl });
  await reader.connect();
  const { rows } = await reader.query('SELECT count(*)::int AS n FROM pets WHERE name = ANY($1)', [names]);
  await reader.end();
  return rows[0].n;
}
