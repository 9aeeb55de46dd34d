// What the service's heap growing factor (apps/api/src/heap-growth.ts) buys and costs: the built
// service with it, and with V8's own policy (`node --heap-growing-percent=0`), alternately, on a
// throw-away PostgreSQL database with 10k pets, median of BENCH_REPS runs of BENCH_DURATION s per
// case at 64 connections (BENCH_CONNECTIONS), each run also giving the process's peak RSS, its CPU
// time per request and its full collections per 10,000 requests (from --trace-gc: steadier than
// req/s on shared cores).
import { randomBytes } from 'node:crypto';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runFocusedBench, startService } from './lib/compare.mjs';
import { growTo } from './lib/database.mjs';
import { runLoad } from './lib/load.mjs';
import { cpuMicros, sampleRss } from './lib/processes.mjs';
import { median } from './lib/report.mjs';
import { checkMemoryTarget } from './lib/targets.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../..');
const REPS = Number(process.env.BENCH_REPS ?? 5);
const SECONDS = Number(process.env.BENCH_DURATION ?? 4);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 64);
const ROWS = 10_000;
const API_KEY = `bench-${randomBytes(12).toString('hex')}`;
const CASES = [
  { name: 'list20', request: { kind: 'path', path: '/v1/pets?limit=20' } },
  { name: 'list100', request: { kind: 'path', path: '/v1/pets?limit=100' } },
  { name: 'get', request: { kind: 'get', path: '/v1/pets/1', maxId: ROWS } },
  { name: 'create', request: { kind: 'create', path: '/v1/pets' } },
];

/** A service started with --trace-gc, counting the full collections it reports. */
async function tracedService(databaseUrl, nodeArgs) {
  const service = await startService(ROOT, { apiKey: API_KEY, env: { DATABASE_URL: databaseUrl }, nodeArgs: ['--trace-gc', ...nodeArgs] });
  service.fullCollections = 0;
  service.child.stdout.on('data', (chunk) => (service.fullCollections += String(chunk).split('Mark-Compact').length - 1));
  return service;
}

/** One run: req/s and p99 from the load tool, peak RSS and CPU per request from /proc, full collections per 10k requests. */
async function measuredRun(tool, service, request) {
  const pid = service.child.pid;
  const [stopSampling, cpuBefore, collectionsBefore] = [sampleRss(pid), cpuMicros(pid), service.fullCollections];
  const result = await runLoad(tool, { baseUrl: service.url, apiKey: API_KEY, request, connections: CONNECTIONS, seconds: SECONDS });
  const requests = result.rps * SECONDS;
  return {
    ...result,
    peakKiB: stopSampling(),
    cpuPerRequest: (cpuMicros(pid) - cpuBefore) / requests,
    collectionsPer10k: ((service.fullCollections - collectionsBefore) * 10_000) / requests,
  };
}

function line(name, runs) {
  const [rps, p99, cpu, collections] = ['rps', 'p99Ms', 'cpuPerRequest', 'collectionsPer10k'].map((field) =>
    median(runs.map((run) => run[field])),
  );
  const peakKiB = Math.max(...runs.map((run) => run.peakKiB));
  const target = checkMemoryTarget({ service: { peakKiB } });
  return `    ${name.padEnd(40)} ${rps.toFixed(0).padStart(6)} req/s  p99 ${p99.toFixed(1).padStart(6)} ms  ${cpu.toFixed(0).padStart(5)} µs CPU/request  ${collections.toFixed(1).padStart(4)} full GCs/10k requests  peak RSS ${(peakKiB / 1024).toFixed(0)} MiB (${target.met ? 'within' : 'over'} ${target.bound})`;
}

runFocusedBench(ROOT, 'heap', async (tool, databaseUrl) => {
  const variants = [
    { name: "V8's policy (--heap-growing-percent=0)", service: await tracedService(databaseUrl, ['--heap-growing-percent=0']) },
    { name: "the service's (1.5)", service: await tracedService(databaseUrl, []) },
  ];
  await growTo(databaseUrl, 0, ROWS);
  console.log(`${tool}, ${CONNECTIONS} connections, ${REPS} x ${SECONDS} s per case and variant, alternating; node ${process.version}`);
  for (const { name, request } of CASES) {
    const runs = variants.map(() => []);
    for (const { service } of variants)
      await runLoad(tool, { baseUrl: service.url, apiKey: API_KEY, request, connections: CONNECTIONS, seconds: 1 });
    for (let rep = 0; rep < REPS; rep++)
      for (const [index, { service }] of variants.entries()) runs[index].push(await measuredRun(tool, service, request));
    console.log(`  ${name}`);
    for (const [index, variant] of variants.entries()) console.log(line(variant.name, runs[index]));
  }
});
