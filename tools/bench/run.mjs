// Benchmarks the built service against a Nest floor and two raw Fastify + pg baselines with the
// same routes, on a throw-away PostgreSQL database, alternately: the floor (a minimal NestJS app
// with the service's SQL and none of its features), the parity baseline (the service's SQL and
// per-answer behaviour written by hand) and the bare one (the brief's SQL and nothing else).
// `--smoke`: 10k rows, one short run per case (the baselines in the first only), and a non-zero exit on any error or 5xx.
// `--built`: the tree is built already (CI, after `npm run openapi`), so no `npm run build` first.
// See tools/bench/README.md.
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { assertSameAnswer, assertSameBody } from './lib/answer-check.mjs';
import { createDatabase, databaseUrl, dropDatabase, explainLists, growTo } from './lib/database.mjs';
import { ensureLoadTool, runLoad } from './lib/load.mjs';
import {
  cleanUpWhenInterrupted,
  cpuMicros,
  freePort,
  rssKiB,
  runCommand,
  sampleRss,
  spawnTracked,
  stop,
  stopAll,
  waitFor200,
} from './lib/processes.mjs';
import { formatReport, idempotencyCost, scaling, summarize } from './lib/report.mjs';
import { BENCH_RATE_LIMIT_PER_MINUTE, benchServiceEnv } from './lib/service-env.mjs';
import { serviceFacts } from './lib/service-facts.mjs';
import { checkTargets, ratios } from './lib/targets.mjs';
import { imageNodeFlags } from '../image/dockerfile.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, '../..');
const SERVICE_MAIN = join(ROOT, 'dist/apps/api/src/main.js');
const BARE_MAIN = join(HERE, 'baseline/server.mjs');
const PARITY_MAIN = join(HERE, 'baseline/parity-server.mjs');
const FLOOR_MAIN = join(HERE, 'baseline/nest-floor-server.mjs');
// The order in which each repetition runs them.
const TARGET_NAMES = ['service', 'floor', 'parity', 'bare'];

const SMOKE = process.argv.includes('--smoke');
const CONFIG = {
  smoke: SMOKE,
  // BENCH_SIZES=10000 skips the 1M-row pass (a quicker comparison of the same cases).
  sizes: SMOKE ? [10_000] : (process.env.BENCH_SIZES?.split(',').map(Number) ?? [10_000, 1_000_000]),
  reps: positiveInt('BENCH_REPS', SMOKE ? 1 : 3),
  // Seconds per measured run; wrk takes whole seconds.
  seconds: positiveInt('BENCH_DURATION', SMOKE ? 1 : 3),
  // Before the first repetition of each case, connection count and target only: the later
  // repetitions find the process JIT-warm and its pool connections open.
  warmupSeconds: positiveInt('BENCH_WARMUP', SMOKE ? 0 : 1, { allowZero: true }),
  // Before a server's first measured run instead: a new process takes seconds of load to reach its steady rate (JIT, heap
  // growth), and the first case was measured on that ramp (docs/performance.md, "A server's first seconds of load").
  firstWarmupSeconds: positiveInt('BENCH_FIRST_WARMUP', SMOKE ? 0 : 6, { allowZero: true }),
  // The smoke run checks answers under load, not figures: the busier of the two is enough.
  connections: SMOKE ? [64] : [8, 64],
  // BENCH_CASES=create,create-keyed runs only those cases (the others are skipped, not measured).
  cases: process.env.BENCH_CASES ? new Set(process.env.BENCH_CASES.split(',')) : undefined,
  adminUrl: process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
  // The service's node flags: the image's (Dockerfile, CMD) unless given; BENCH_SERVICE_NODE_FLAGS= (empty) runs it without any.
  serviceNodeFlags: process.env.BENCH_SERVICE_NODE_FLAGS?.split(' ').filter(Boolean) ?? imageNodeFlags(),
};
const API_KEY = `bench-${randomBytes(12).toString('hex')}`;
const AUTH = { authorization: `Bearer ${API_KEY}` };
const SERVICE_ENV = benchServiceEnv(API_KEY);
const STAMP = new Date().toISOString().replace(/\D/g, '').slice(0, 14);
const DATABASE = `petstore_bench_${STAMP}`;
const DATABASE_URL = databaseUrl(CONFIG.adminUrl, DATABASE);

const CASES = [
  { name: 'list20', list: true, request: () => ({ kind: 'path', path: '/v1/pets?limit=20' }) },
  { name: 'list20-pending', list: true, request: () => ({ kind: 'path', path: '/v1/pets?status=pending&limit=20' }) },
  { name: 'list100', list: true, request: () => ({ kind: 'path', path: '/v1/pets?limit=100' }) },
  { name: 'get', request: (size) => ({ kind: 'get', path: '/v1/pets/1', maxId: size }) },
  // A page far from the start only means something on the largest table. A target that
  // answers 400 to `after` does not have keyset pages yet: skipped, not failed.
  {
    name: 'deep-page',
    largestOnly: true,
    optional: true,
    request: (size) => ({ kind: 'path', path: `/v1/pets?limit=20&after=${size - 1000}` }),
  },
  // Last: they grow the table.
  { name: 'create', request: () => ({ kind: 'create', path: '/v1/pets' }) },
  // Each request with an Idempotency-Key of its own: what a retry-safe create costs. The floor
  // has no such feature (it would make plain creates): skipped there.
  { name: 'create-keyed', wrkOnly: true, featureOnly: true, request: () => ({ kind: 'create-keyed', path: '/v1/pets' }) },
];

function positiveInt(name, fallback, { allowZero = false } = {}) {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < (allowZero ? 0 : 1))
    throw new Error(`${name} must be a whole number${allowZero ? '' : ' above 0'}, not "${raw}"`);
  return value;
}

const cleanupTasks = [];
/** Stops every child, drops the database, removes temp dirs; once, whichever way we end. */
const cleanup = cleanUpWhenInterrupted(async () => {
  await stopAll();
  for (const task of cleanupTasks.reverse()) {
    await task().catch((error) => console.error(`Cleanup: ${error.message}`));
  }
});

/** Spawns the service (extra env picks the database), the floor or a baseline, and times it to its first 200. */
async function start(name, env) {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const baselineEnv = { API_KEY, SERVICE_FACTS: JSON.stringify(CONFIG.facts), ...env };
  const [main, targetEnv] = {
    service: [SERVICE_MAIN, { ...SERVICE_ENV, ...env }],
    floor: [FLOOR_MAIN, baselineEnv],
    parity: [PARITY_MAIN, baselineEnv],
    bare: [BARE_MAIN, baselineEnv],
  }[name];
  const since = performance.now();
  const nodeArgs = name === 'service' ? CONFIG.serviceNodeFlags : [];
  const child = spawnTracked(process.execPath, [...nodeArgs, main], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, PORT: String(port), ...targetEnv },
  });
  const startMs = await waitFor200(`${url}/v1/pets?limit=1`, { headers: AUTH, child, since });
  return { name, child, url, startMs };
}

/** Times the service on the embedded database: the first-ever start, then a start on the now initialized directory. */
async function embeddedStartTimes() {
  const dataDir = mkdtempSync(join(tmpdir(), 'petstore-bench-'));
  cleanupTasks.push(async () => rmSync(dataDir, { recursive: true, force: true }));
  const times = [];
  for (const what of ['embedded PGlite, first-ever start (creates the DB)', 'embedded PGlite, start on an initialized DATA_DIR']) {
    const service = await start('service', { DATA_DIR: dataDir });
    await stop(service.child);
    times.push({ what, ms: service.startMs });
  }
  return times;
}

/** One request: a target without keyset pages answers 400 to `after`. */
async function skipReason(target, request) {
  const response = await fetch(target.url + request.path, { headers: AUTH });
  await response.arrayBuffer();
  return response.status === 400 ? 'answers 400' : undefined;
}

function load(target, request, connections, seconds) {
  return runLoad(CONFIG.tool, { baseUrl: target.url, apiKey: API_KEY, request, connections, seconds, countStatuses: SMOKE });
}

/** One case at one connection count: service, floor, parity and bare alternately, `reps` times, never two at once. */
async function measure(kase, request, connections, targets, skipped) {
  const runs = Object.fromEntries(targets.map((t) => [t.name, []]));
  for (let rep = 0; rep < CONFIG.reps; rep++) {
    for (const target of targets) {
      if (skipped[target.name]) continue;
      const warmupSeconds = target.warm ? CONFIG.warmupSeconds : Math.max(CONFIG.warmupSeconds, CONFIG.firstWarmupSeconds);
      if (rep === 0 && warmupSeconds > 0) await load(target, request, connections, warmupSeconds);
      target.warm = true;
      // Peak memory is watched where it is expected: the widest responses at the most connections.
      const stopSampling = kase.list && connections === 64 ? sampleRss(target.child.pid) : undefined;
      const cpuBefore = cpuMicros(target.child.pid);
      const run = await load(target, request, connections, CONFIG.seconds);
      // What the target's process spent per answer, user and system: the cost req/s hides when the load tool shares the cores.
      run.cpuUsPerRequest = (cpuMicros(target.child.pid) - cpuBefore) / (run.rps * CONFIG.seconds);
      runs[target.name].push(run);
      if (stopSampling) target.peakKiB = Math.max(target.peakKiB ?? 0, stopSampling());
    }
  }
  const result = (name) => (skipped[name] ? { skipped: skipped[name] } : summarize(runs[name]));
  return Object.fromEntries(TARGET_NAMES.map((name) => [name, result(name)]));
}

/** A case's row: each target's summary, service over each of the other three, and the targets met or missed. */
function caseRow(size, kase, connections, results) {
  const row = { size, case: kase.name, list: Boolean(kase.list), connections, ...results };
  const over = (name) => ratios(results.service, results[name]);
  row.ratios = { floor: over('floor'), parity: over('parity'), bare: over('bare') };
  // The smoke run's figures are judged by nothing: too short, and the baselines sit out most cases.
  row.targets = SMOKE ? [] : checkTargets(row);
  return row;
}

function progressLine(row) {
  const side = (name) =>
    row[name].skipped
      ? `${name} skipped`
      : `${name} ${Math.round(row[name].rps)} req/s, ${Math.round(row[name].cpuUsPerRequest)} µs CPU/req, ${row[name].errors} errors`;
  const sides = TARGET_NAMES.map(side).join(' | ');
  return `  ${String(row.size).padStart(7)} ${row.case.padEnd(15)} c${String(row.connections).padEnd(3)} ${sides}`;
}

async function runCases(size, targets) {
  const rows = [];
  for (const kase of CASES) {
    if (kase.largestOnly && size !== CONFIG.sizes.at(-1)) continue;
    if (CONFIG.cases && !CONFIG.cases.has(kase.name)) continue;
    const request = kase.request(size);
    const skipped = {};
    if (kase.optional) for (const t of targets) skipped[t.name] = await skipReason(t, request);
    if (kase.wrkOnly && CONFIG.tool !== 'wrk') for (const t of targets) skipped[t.name] = 'needs wrk';
    if (kase.featureOnly) skipped.floor ??= 'no feature';
    // Measured only if the parity baseline answers as the service does, and the floor with bare's status and body.
    const [service, floor, parity, bare] = TARGET_NAMES.map((name) => targets.find((target) => target.name === name));
    if (!skipped.service && !skipped.parity) await assertSameAnswer(service, parity, request, AUTH);
    if (!skipped.floor && !skipped.bare) await assertSameBody(bare, floor, request, AUTH);
    // The smoke run loads the baselines in its first case only: it checks the service's answers, and that the baselines serve.
    if (SMOKE && rows.length > 0) for (const t of targets) if (t.name !== 'service') skipped[t.name] ??= 'smoke: first case only';
    for (const connections of CONFIG.connections) {
      const row = caseRow(size, kase, connections, await measure(kase, request, connections, targets, skipped));
      rows.push(row);
      console.log(progressLine(row));
    }
  }
  return rows;
}

/** Each size: grow the table, restart the four servers (fresh plans and pools), run every case. */
async function benchSizes(startup) {
  const rows = [];
  const memory = [];
  const explain = [];
  const serviceLog = [];
  let rowsNow = 0;
  for (const size of CONFIG.sizes) {
    const seeded = performance.now();
    await growTo(DATABASE_URL, rowsNow, size);
    rowsNow = size;
    console.log(`Seeded ${size} rows in ${((performance.now() - seeded) / 1000).toFixed(1)} s`);
    if (size >= 1_000_000) explain.push(...(await explainLists(DATABASE_URL)));
    const service = await start('service', { DATABASE_URL });
    startup.push({ what: `PostgreSQL, ${size} rows (migrations already applied)`, ms: service.startMs });
    const floor = await start('floor', { DATABASE_URL });
    startup.push({ what: `Nest floor (NestJS + Fastify + pg), ${size} rows`, ms: floor.startMs });
    const parity = await start('parity', { DATABASE_URL });
    startup.push({ what: `parity baseline (raw Fastify + pg), ${size} rows`, ms: parity.startMs });
    const bare = await start('bare', { DATABASE_URL });
    startup.push({ what: `bare baseline (raw Fastify + pg), ${size} rows`, ms: bare.startMs });
    const targets = [service, floor, parity, bare];
    const idleKiB = targets.map((target) => rssKiB(target.child.pid));
    rows.push(...(await runCases(size, targets)));
    const rss = targets.map((target, i) => [target.name, { idleKiB: idleKiB[i], peakKiB: target.peakKiB }]);
    memory.push({ size, ...Object.fromEntries(rss) });
    await Promise.all(targets.map((target) => stop(target.child)));
    // At LOG_LEVEL=warn the service logs only 503s, 5xx and other trouble: worth showing.
    const log = service.child.output.trim();
    if (log) serviceLog.push({ size, lines: log.split('\n') });
  }
  return { rows, memory, explain, serviceLog };
}

/** Any error or 5xx in any case fails the smoke run. */
function smokeFailures(rows) {
  return rows.flatMap((row) =>
    TARGET_NAMES.filter((name) => !row[name].skipped && (row[name].errors > 0 || row[name].fiveXx > 0)).map(
      (name) => `${row.case} c${row.connections} ${name}: ${row[name].errors} errors, ${row[name].fiveXx ?? '?'} 5xx`,
    ),
  );
}

async function main() {
  const began = performance.now();
  const unknown = [...(CONFIG.cases ?? [])].filter((name) => !CASES.some((kase) => kase.name === name));
  if (unknown.length)
    throw new Error(`BENCH_CASES names unknown cases: ${unknown.join(', ')} (known: ${CASES.map((kase) => kase.name).join(', ')})`);
  CONFIG.tool = await ensureLoadTool(process.env.BENCH_TOOL);
  console.log(
    `Load tool: ${CONFIG.tool}; ${CONFIG.reps} rep(s) x ${CONFIG.seconds} s, warm-up ${CONFIG.warmupSeconds} s (a server's first: ${CONFIG.firstWarmupSeconds} s), sizes ${CONFIG.sizes.join(', ')}; the service's node flags: ${CONFIG.serviceNodeFlags.join(' ') || 'none'}`,
  );
  const loadAtStart = loadavg();
  if (!process.argv.includes('--built')) await runCommand('npm', ['run', 'build'], { cwd: ROOT });
  CONFIG.facts = await serviceFacts(ROOT, { perKeyPerMinute: BENCH_RATE_LIMIT_PER_MINUTE });

  await createDatabase(CONFIG.adminUrl, DATABASE);
  cleanupTasks.push(() => dropDatabase(CONFIG.adminUrl, DATABASE));
  console.log(`Database ${DATABASE}`);
  // The first start on the empty database runs the migrations that create `pets`.
  const migrating = await start('service', { DATABASE_URL });
  await stop(migrating.child);
  const startup = [{ what: 'PostgreSQL, first start (runs the migrations)', ms: migrating.startMs }];

  const { rows, memory, explain, serviceLog } = await benchSizes(startup);
  // The smoke run checks answers; CI's own step starts the embedded store (npm start).
  if (!SMOKE) startup.push(...(await embeddedStartTimes()));

  const elapsedS = (performance.now() - began) / 1000;
  const scalingRows = scaling(rows, CONFIG.sizes);
  // On a machine shared with other jobs, the figures mean little without it.
  const loadAverage = { start: loadAtStart, end: loadavg() };
  console.log(formatReport({ rows, scalingRows, memory, startup, explain, serviceLog, elapsedS, sizes: CONFIG.sizes, loadAverage }));

  const file = join(HERE, 'results', `${STAMP}${SMOKE ? '-smoke' : ''}.json`);
  mkdirSync(dirname(file), { recursive: true });
  const machine = { cpus: availableParallelism(), node: process.version, loadAverage };
  const results = {
    stamp: STAMP,
    config: { ...CONFIG, cases: CONFIG.cases && [...CONFIG.cases] },
    machine,
    elapsedS,
    rows,
    scaling: scalingRows,
  };
  Object.assign(results, { idempotencyCost: idempotencyCost(rows), memory, startup, explain, serviceLog });
  writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
  console.log(`Results: ${relative(ROOT, file)}`);

  if (!SMOKE) return 0;
  const failures = smokeFailures(rows);
  for (const failure of failures) console.error(`FAIL ${failure}`);
  return failures.length ? 1 : 0;
}

main().then(
  async (code) => {
    await cleanup();
    process.exit(code);
  },
  async (error) => {
    // Interrupted: the signal handler is already cleaning up and exits with its own code.
    if (cleanup.started()) return;
    console.error(error instanceof Error ? error.stack : error);
    await cleanup();
    process.exit(1);
  },
);
