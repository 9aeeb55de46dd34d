// What OpenTelemetry tracing costs (docs/operations.md, "Traces"): the built service with tracing off
// (no OTEL_* variable) and on (every request sampled, then a tenth of them; exported as OTLP/HTTP
// protobuf to a local receiver that accepts and drops them, as a collector would), alternately, on a
// throw-away PostgreSQL database with 10k pets, median of BENCH_REPS runs of BENCH_DURATION s per
// case at BENCH_CONNECTIONS connections, with the service's CPU time per request (steadier than
// req/s on shared cores). BENCH_BEFORE=<dir> adds the service built in another checkout (say, of
// the commit before tracing), first, to show what tracing off costs against it.
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { alternate, runFocusedBench, startService } from './lib/compare.mjs';
import { growTo } from './lib/database.mjs';
import { cpuMicros } from './lib/processes.mjs';
import { median } from './lib/report.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../..');
const REPS = Number(process.env.BENCH_REPS ?? 5);
const SECONDS = Number(process.env.BENCH_DURATION ?? 3);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 64);
const BEFORE = process.env.BENCH_BEFORE;
const ROWS = 10_000;
const API_KEY = `bench-${randomBytes(12).toString('hex')}`;
const CASES = [
  { name: 'list20', request: { kind: 'path', path: '/v1/pets?limit=20' } },
  { name: 'get', request: { kind: 'get', path: '/v1/pets/1', maxId: ROWS } },
  { name: 'create', request: { kind: 'create', path: '/v1/pets' } },
];

/** An OTLP/HTTP endpoint that accepts every export and keeps nothing but the count of bytes it was sent. */
async function startSink() {
  let bytes = 0;
  const server = createServer((request, response) => {
    request.on('data', (chunk) => (bytes += chunk.length));
    request.on('end', () => response.writeHead(200, { 'content-type': 'application/x-protobuf' }).end());
  });
  await new Promise((done) => server.listen(0, '127.0.0.1', done));
  return { server, url: `http://127.0.0.1:${server.address().port}`, received: () => bytes };
}

async function variant(name, databaseUrl, { script, env = {} } = {}) {
  const service = await startService(ROOT, { script, apiKey: API_KEY, env: { DATABASE_URL: databaseUrl, ...env } });
  return { name, url: service.url, apiKey: API_KEY, pid: service.child.pid };
}

/** CPU time per request of the run's process, from /proc. */
function watch(target) {
  const before = cpuMicros(target.pid);
  return (result) => ({ cpuPerRequest: (cpuMicros(target.pid) - before) / (result.rps * SECONDS) });
}

runFocusedBench(ROOT, 'tracing', async (tool, databaseUrl) => {
  const sink = await startSink();
  try {
    const variants = [
      ...(BEFORE
        ? [await variant(`before (${BEFORE})`, databaseUrl, { script: relative(ROOT, resolve(BEFORE, 'dist/apps/api/src/main.js')) })]
        : []),
      await variant('tracing off', databaseUrl),
      await variant('tracing on, every request', databaseUrl, { env: { OTEL_EXPORTER_OTLP_ENDPOINT: sink.url } }),
      await variant('tracing on, a tenth of the requests', databaseUrl, {
        env: { OTEL_EXPORTER_OTLP_ENDPOINT: sink.url, OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.1' },
      }),
    ];
    await growTo(databaseUrl, 0, ROWS);
    console.log(`${tool}, ${CONNECTIONS} connections, ${REPS} x ${SECONDS} s per case and variant, alternating; node ${process.version}`);
    for (const { name, request } of CASES) {
      const results = await alternate(tool, variants, request, { connections: CONNECTIONS, reps: REPS, seconds: SECONDS, watch });
      console.log(`  ${name}`);
      for (const { name: variantName, rps, p99Ms, runs, relative: share } of results) {
        const cpu = median(runs.map((run) => run.cpuPerRequest));
        const cpus = runs.map((run) => run.cpuPerRequest.toFixed(0)).join(' ');
        console.log(
          `    ${variantName.padEnd(44)} ${rps.toFixed(0).padStart(6)} req/s (${(share * 100).toFixed(1).padStart(5)} %)  p99 ${p99Ms.toFixed(1).padStart(6)} ms  ${cpu.toFixed(0).padStart(5)} µs CPU/request (runs: ${cpus})`,
        );
      }
    }
    console.log(`  the receiver was sent ${(sink.received() / 1024 / 1024).toFixed(1)} MiB of spans`);
  } finally {
    sink.server.close();
  }
});
