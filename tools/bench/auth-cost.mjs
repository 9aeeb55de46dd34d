// What authentication and rate limiting cost a request (issue: API keys and abuse protection).
// On a throw-away PostgreSQL database with 10k pets, the built service answers getPet with
//   - a bootstrap key from API_KEYS (a constant-time compare, no I/O),
//   - an issued key (ps_…: prefix lookup cached for 1 s, SHA-256, constant-time compare),
//   - an issued key with the rate limits counted in Redis instead of memory,
// alternately, median of BENCH_REPS runs of BENCH_DURATION s, at 8 and 64 connections. Then it
// times the pieces alone: a key lookup in the database (the cache miss, once a second per key
// and instance), a cache hit, and one rate-limit count in memory and in Redis.
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { alternate, formatVariant, runFocusedBench, startService } from './lib/compare.mjs';
import { growTo } from './lib/database.mjs';
import { runCommand } from './lib/processes.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, '../..');
const require = createRequire(import.meta.url);
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const REPS = Number(process.env.BENCH_REPS ?? 3);
const SECONDS = Number(process.env.BENCH_DURATION ?? 3);
const ROWS = 10_000;
const BOOTSTRAP_KEY = `bench-${randomBytes(12).toString('hex')}`;

/** Mean microseconds of `work` over `count` sequential calls, after as many warm-up calls. */
async function meanMicros(count, work) {
  for (let i = 0; i < count; i++) await work(i);
  const began = performance.now();
  for (let i = 0; i < count; i++) await work(i);
  return ((performance.now() - began) * 1000) / count;
}

async function pieces(databaseUrl, issuedKey) {
  const auth = require(join(ROOT, 'dist/libs/auth/src/index.js'));
  const prefix = issuedKey.slice(0, 15);
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const lookup = {
    name: 'lookup',
    text: 'SELECT id::text AS id, name, prefix, created_at, last_used_at, revoked_at, secret_sha256 FROM api_keys WHERE prefix = $1',
    values: [prefix],
  };
  const miss = await meanMicros(2000, () => client.query(lookup));
  await client.end();
  const stored = { id: '1', prefix, secretSha256: auth.sha256(issuedKey.slice(16)), revokedAt: null, lastUsedAt: new Date() };
  const keys = new auth.IssuedKeys({ findByPrefix: async () => stored, touch: async () => {} });
  const hit = await meanMicros(100_000, () => keys.verify(issuedKey));
  const memory = new auth.RateLimits({ perKeyPerMinute: 1e9, authFailuresPerMinute: 1 });
  const inMemory = await meanMicros(100_000, () => memory.consumeRequest('bench'));
  const redis = new auth.RateLimits({ perKeyPerMinute: 1e9, authFailuresPerMinute: 1, redisUrl: REDIS_URL });
  await redis.onModuleInit();
  const inRedis = await meanMicros(5000, () => redis.consumeRequest(`bench-${prefix}`));
  await redis.onApplicationShutdown();
  return [
    ['key lookup in PostgreSQL (cache miss: once a second per key and instance)', miss],
    ['issued key, cache hit (parse, SHA-256, constant-time compare)', hit],
    ['rate-limit count in memory', inMemory],
    ['rate-limit count in Redis (one round trip)', inRedis],
  ];
}

runFocusedBench(ROOT, 'auth', async (tool, databaseUrl) => {
  const service = (env) => startService(ROOT, { apiKey: BOOTSTRAP_KEY, env: { DATABASE_URL: databaseUrl, ...env } });
  const memory = await service({});
  await growTo(databaseUrl, 0, ROWS);
  const cli = ['dist/tools/keys/main.js', 'create', '--name', 'bench'];
  const issuedKey = (
    await runCommand(process.execPath, cli, { cwd: ROOT, env: { PATH: process.env.PATH, DATABASE_URL: databaseUrl } })
  ).trim();
  const redis = await service({ REDIS_URL });
  const variants = [
    { name: 'bootstrap key (API_KEYS), memory limits', url: memory.url, apiKey: BOOTSTRAP_KEY },
    { name: 'issued key, memory limits', url: memory.url, apiKey: issuedKey },
    { name: 'issued key, Redis limits', url: redis.url, apiKey: issuedKey },
  ];
  const request = { kind: 'get', path: '/v1/pets/1', maxId: ROWS };
  console.log(`getPet, ${tool}, ${REPS} x ${SECONDS} s per variant, alternating`);
  for (const connections of [8, 64]) {
    for (const result of await alternate(tool, variants, request, { connections, reps: REPS, seconds: SECONDS })) {
      console.log(formatVariant(`c${connections} ${result.name}`, result));
    }
  }
  console.log('Pieces alone (mean per call, sequential):');
  for (const [what, micros] of await pieces(databaseUrl, issuedKey))
    console.log(`  ${what.padEnd(76)} ${micros.toFixed(1).padStart(7)} µs`);
});
