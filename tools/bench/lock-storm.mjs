// npm run bench:lock: creates against a table locked by another session (LOCK TABLE pets IN ACCESS
// EXCLUSIVE MODE) for BENCH_LOCK_SECONDS (40), from 16 clients, on a throw-away PostgreSQL database
// next to BENCH_DATABASE_URL. Reports the answers, their latency, how many of those pets exist once
// the lock is released (must be 0) and the most backends the service held (must not pass its pool).
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { runFocusedBench, startService } from './lib/compare.mjs';

const { Client } = createRequire(import.meta.url)('pg');
const LOCK_SECONDS = Number(process.env.BENCH_LOCK_SECONDS ?? 40);
const CLIENTS = 16;
const KEY = 'bench-lock-storm-key-0123456789';
const ROOT = resolve(import.meta.dirname, '../..');

runFocusedBench(ROOT, 'lock', async (_tool, url) => {
  const { url: base } = await startService(ROOT, { apiKey: KEY, env: { DATABASE_URL: url }, readyPath: '/readyz' });
  const database = new URL(url).pathname.slice(1);
  const observer = await connect(url);
  const backends = async (state = null) =>
    (
      await observer.query(
        `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1 AND application_name = 'petstore' AND ($2::text IS NULL OR state = $2)`,
        [database, state],
      )
    ).rows[0].n;

  const locker = await connect(url);
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
  const { rows } = await observer.query('SELECT count(*)::int AS n FROM pets WHERE name = ANY($1)', [names]);
  await observer.end();
  latencies.sort((a, b) => a - b);
  const at = (q) => Math.round(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]);
  console.log(`lock held ${LOCK_SECONDS} s; ${names.length} creates from ${CLIENTS} clients; answers ${JSON.stringify(statuses)}`);
  console.log(`latency ms: p50 ${at(0.5)}, p99 ${at(0.99)}, max ${at(1)}`);
  console.log(`pets of those creates in the table after the lock: ${rows[0].n} (must be 0)`);
  console.log(`most backends the service held: ${mostBackends}`);
});

/** A client whose error while idle is not fatal: on Ctrl-C, the clean-up's DROP DATABASE … WITH (FORCE) ends it. */
async function connect(url) {
  const client = new Client({ connectionString: url });
  client.on('error', () => {});
  await client.connect();
  return client;
}
