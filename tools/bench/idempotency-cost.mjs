// What an Idempotency-Key costs createPet: the built service and the baseline (the same SQL on raw
// Fastify + pg), each creating without a key and with a new key per request (every request creates,
// none replays), on PostgreSQL with 10k pets, alternately, median of BENCH_REPS runs of
// BENCH_DURATION s, at 8 and 64 connections. Needs wrk: autocannon cannot vary a header per request.
import { randomBytes } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { alternate, formatVariant, runFocusedBench, startService } from './lib/compare.mjs';
import { growTo } from './lib/database.mjs';
import { BENCH_RATE_LIMIT_PER_MINUTE } from './lib/service-env.mjs';
import { serviceFacts } from './lib/service-facts.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../..');
const REPS = Number(process.env.BENCH_REPS ?? 5);
const SECONDS = Number(process.env.BENCH_DURATION ?? 3);
const ROWS = 10_000;
const API_KEY = `bench-${randomBytes(12).toString('hex')}`;
const PLAIN = { kind: 'create', path: '/v1/pets' };
const KEYED = { kind: 'create-keyed', path: '/v1/pets' };

runFocusedBench(ROOT, 'idempotency', async (tool, databaseUrl) => {
  if (tool !== 'wrk') throw new Error('bench:idempotency needs wrk: autocannon cannot give each request a key of its own');
  const service = await startService(ROOT, { apiKey: API_KEY, env: { DATABASE_URL: databaseUrl } });
  await growTo(databaseUrl, 0, ROWS);
  // The baseline answers a keyed create as the service does, from the service's own facts.
  const facts = await serviceFacts(ROOT, { perKeyPerMinute: BENCH_RATE_LIMIT_PER_MINUTE });
  const baseline = await startService(ROOT, {
    script: 'tools/bench/baseline/server.mjs',
    apiKey: API_KEY,
    env: { DATABASE_URL: databaseUrl, API_KEY, SERVICE_FACTS: JSON.stringify(facts) },
  });
  const variants = [
    { name: 'service, no key', url: service.url, apiKey: API_KEY, request: PLAIN },
    { name: 'service, a new Idempotency-Key each', url: service.url, apiKey: API_KEY, request: KEYED },
    { name: 'baseline, no key', url: baseline.url, apiKey: API_KEY, request: PLAIN },
    { name: 'baseline, a new Idempotency-Key each', url: baseline.url, apiKey: API_KEY, request: KEYED },
  ];
  console.log(
    `${availableParallelism()} cores shared by wrk, Node and PostgreSQL; ${tool}, ${REPS} x ${SECONDS} s, alternating; % of the service without a key`,
  );
  for (const connections of [8, 64]) {
    for (const result of await alternate(tool, variants, PLAIN, { connections, reps: REPS, seconds: SECONDS })) {
      console.log(formatVariant(`createPet c${connections}, ${result.name}`, result));
    }
  }
});
