// What the image's heap growing factor (Dockerfile, CMD) buys and costs: the built service with the
// image's node flags, and with the same flags but V8's own growing policy, alternately, on a
// throw-away PostgreSQL database with 10k pets, median of BENCH_REPS runs of BENCH_DURATION s per
// case at 64 connections (BENCH_CONNECTIONS), each run also giving the process's peak RSS, its CPU
// time per request and its full collections per 10,000 requests (from --trace-gc: steadier than
// req/s on shared cores).
import { randomBytes } from 'node:crypto';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { imageNodeFlags } from '../image/dockerfile.mjs';
import { alternate, runFocusedBench, startService } from './lib/compare.mjs';
import { growTo } from './lib/database.mjs';
import { cpuMicros, sampleRss } from './lib/processes.mjs';
import { median } from './lib/report.mjs';
import { checkMemoryTarget } from './lib/targets.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../..');
const REPS = Number(process.env.BENCH_REPS ?? 5);
const SECONDS = Number(process.env.BENCH_DURATION ?? 4);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 64);
const ROWS = 10_000;
const GROWING_FACTOR = /^--heap-growing-percent=/;
const IMAGE_FLAGS = imageNodeFlags();
const V8_POLICY_FLAGS = IMAGE_FLAGS.filter((flag) => !GROWING_FACTOR.test(flag));
if (V8_POLICY_FLAGS.length === IMAGE_FLAGS.length) throw new Error("the image's CMD sets no --heap-growing-percent: nothing to compare");
const API_KEY = `bench-${randomBytes(12).toString('hex')}`;
const CASES = [
  { name: 'list20', request: { kind: 'path', path: '/v1/pets?limit=20' } },
  { name: 'list100', request: { kind: 'path', path: '/v1/pets?limit=100' } },
  { name: 'get', request: { kind: 'get', path: '/v1/pets/1', maxId: ROWS } },
  { name: 'create', request: { kind: 'create', path: '/v1/pets' } },
];

/** A variant: the service started with --trace-gc and `nodeArgs`, counting the full collections it reports. */
async function tracedVariant(name, databaseUrl, nodeArgs) {
  const service = await startService(ROOT, { apiKey: API_KEY, env: { DATABASE_URL: databaseUrl }, nodeArgs: ['--trace-gc', ...nodeArgs] });
  const variant = { name, url: service.url, apiKey: API_KEY, pid: service.child.pid, fullCollections: 0 };
  service.child.stdout.on('data', (chunk) => (variant.fullCollections += String(chunk).split('Mark-Compact').length - 1));
  return variant;
}

/** Watches one run: peak RSS and CPU per request from /proc, full collections per 10k requests. */
function watch(variant) {
  const [stopSampling, cpuBefore, collectionsBefore] = [sampleRss(variant.pid), cpuMicros(variant.pid), variant.fullCollections];
  return (result) => {
    const requests = result.rps * SECONDS;
    return {
      peakKiB: stopSampling(),
      cpuPerRequest: (cpuMicros(variant.pid) - cpuBefore) / requests,
      collectionsPer10k: ((variant.fullCollections - collectionsBefore) * 10_000) / requests,
    };
  };
}

function line({ name, rps, p99Ms, runs }) {
  const [cpu, collections] = ['cpuPerRequest', 'collectionsPer10k'].map((field) => median(runs.map((run) => run[field])));
  const peakKiB = Math.max(...runs.map((run) => run.peakKiB));
  const target = checkMemoryTarget(peakKiB);
  return `    ${name.padEnd(40)} ${rps.toFixed(0).padStart(6)} req/s  p99 ${p99Ms.toFixed(1).padStart(6)} ms  ${cpu.toFixed(0).padStart(5)} µs CPU/request  ${collections.toFixed(1).padStart(4)} full GCs/10k requests  peak RSS ${(peakKiB / 1024).toFixed(0)} MiB (${target.met ? 'within' : 'over'} ${target.bound})`;
}

runFocusedBench(ROOT, 'heap', async (tool, databaseUrl) => {
  const variants = [
    await tracedVariant("V8's growing policy", databaseUrl, V8_POLICY_FLAGS),
    await tracedVariant(`the image's (${IMAGE_FLAGS.join(' ')})`, databaseUrl, IMAGE_FLAGS),
  ];
  await growTo(databaseUrl, 0, ROWS);
  console.log(`${tool}, ${CONNECTIONS} connections, ${REPS} x ${SECONDS} s per case and variant, alternating; node ${process.version}`);
  for (const { name, request } of CASES) {
    const results = await alternate(tool, variants, request, { connections: CONNECTIONS, reps: REPS, seconds: SECONDS, watch });
    console.log(`  ${name}`);
    for (const result of results) console.log(line(result));
  }
});
