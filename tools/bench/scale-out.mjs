// What a second process gives on this machine: the built service as one process, and as a Node
// cluster of two workers on the same port, on PostgreSQL with 10k pets, alternately, median of
// BENCH_REPS runs of BENCH_DURATION s at 64 connections.
import { randomBytes } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { alternate, formatVariant, runFocusedBench, startService } from './lib/compare.mjs';
import { growTo } from './lib/database.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../..');
const REPS = Number(process.env.BENCH_REPS ?? 3);
const SECONDS = Number(process.env.BENCH_DURATION ?? 3);
const ROWS = 10_000;
const API_KEY = `bench-${randomBytes(12).toString('hex')}`;
const CASES = [
  { name: 'list20', request: { kind: 'path', path: '/v1/pets?limit=20' } },
  { name: 'get', request: { kind: 'get', path: '/v1/pets/1', maxId: ROWS } },
];

runFocusedBench(ROOT, 'scale', async (tool, databaseUrl) => {
  const service = (script) => startService(ROOT, { script, apiKey: API_KEY, env: { DATABASE_URL: databaseUrl } });
  const single = await service(undefined);
  await growTo(databaseUrl, 0, ROWS);
  const pair = await service('tools/bench/lib/cluster-worker.mjs');
  const targets = [
    { name: 'one process', url: single.url, apiKey: API_KEY },
    { name: 'cluster of 2 workers', url: pair.url, apiKey: API_KEY },
  ];
  console.log(`${availableParallelism()} cores shared by wrk, Node and PostgreSQL; ${tool}, c64, ${REPS} x ${SECONDS} s, alternating`);
  for (const kase of CASES) {
    for (const result of await alternate(tool, targets, kase.request, { connections: 64, reps: REPS, seconds: SECONDS })) {
      console.log(formatVariant(`${kase.name} ${result.name}`, result));
    }
  }
});
