// Start-up and the embedded store's memory (docs/performance.md, "Start-up and memory").
//
// Start-up: the time from spawning `node dist/apps/api/src/main.js` (the build is done once,
// beforehand) to its first 200 on /readyz, which answers once the database is open and migrated.
// Three cases, alternating in each of BENCH_RUNS rounds (default 5) so that the machine's load
// falls on all of them alike: PostgreSQL (a throw-away database next to BENCH_DATABASE_URL, its
// migrations applied by an untimed first start), the embedded PGlite on a DATA_DIR initialised by
// an earlier start, and PGlite on an empty DATA_DIR (a first-ever start). Besides the medians it
// prints each run, the CPU time the process had used by its first answer (user + system, all
// threads: steadier than wall time on a busy machine) and its RSS then.
//
// Memory: the embedded store on its initialised DATA_DIR, idle (BENCH_IDLE_SECONDS after its
// first answer), then its peak under BENCH_LOAD_SECONDS of creates and then of lists of 20 at 64
// connections each (wrk, or autocannon through npx), and idle again after the load.
//
// Usage: npm run bench:startup      (BENCH_RUNS=9 npm run bench:startup for more rounds)
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { runFocusedBench, startService } from './lib/compare.mjs';
import { runLoad } from './lib/load.mjs';
import { cpuMicros, rssKiB, sampleRss, stop } from './lib/processes.mjs';
import { median } from './lib/report.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../..');
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const IDLE_SECONDS = Number(process.env.BENCH_IDLE_SECONDS ?? 3);
const LOAD_SECONDS = Number(process.env.BENCH_LOAD_SECONDS ?? 5);
const LOAD_CONNECTIONS = 64;
const API_KEY = `bench-${randomBytes(12).toString('hex')}`;

const scratch = mkdtempSync(join(tmpdir(), 'petstore-bench-startup-'));
process.on('exit', () => rmSync(scratch, { recursive: true, force: true }));
let dataDirs = 0;
const newDataDir = () => join(scratch, `data-${++dataDirs}`);

/** Spawns the built service and times it to its first 200 on /readyz; it is left running. */
async function start(env) {
  const { child, url, startMs } = await startService(ROOT, { apiKey: API_KEY, env, readyPath: '/readyz' });
  return { child, url, ms: startMs, cpuS: cpuMicros(child.pid) / 1e6, rssMiB: rssKiB(child.pid) / 1024 };
}

/** Starts, times and stops the service once. */
async function timedStart(env) {
  const service = await start(env);
  await stop(service.child);
  return service;
}

const mib = (kib) => Math.round(kib / 1024);

/** The embedded store's RSS: idle, at its peak under creates and then lists, and idle again. */
async function embeddedMemory(tool, dataDir) {
  const service = await start({ DATA_DIR: dataDir });
  try {
    await sleep(IDLE_SECONDS * 1000);
    const idleKiB = rssKiB(service.child.pid);
    const peak = sampleRss(service.child.pid);
    const load = async (request) => {
      const result = await runLoad(tool, {
        baseUrl: service.url,
        apiKey: API_KEY,
        request,
        connections: LOAD_CONNECTIONS,
        seconds: LOAD_SECONDS,
      });
      if (result.errors > 0) throw new Error(`${request.kind} ${request.path}: ${result.errors} errors under load`);
      return result;
    };
    const create = await load({ kind: 'create', path: '/v1/pets' });
    const list = await load({ kind: 'path', path: '/v1/pets?limit=20' });
    const peakKiB = peak();
    await sleep(IDLE_SECONDS * 1000);
    return { idleKiB, peakKiB, afterKiB: rssKiB(service.child.pid), create, list };
  } finally {
    await stop(service.child);
  }
}

function caseLine(name, runs) {
  const ms = runs.map((run) => run.ms);
  const values = (pick, digits) => runs.map((run) => pick(run).toFixed(digits)).join(' ');
  return [
    `  ${name.padEnd(38)} median ${median(ms).toFixed(0).padStart(5)} ms   runs ${values((run) => run.ms, 0)}`,
    `  ${''.padEnd(38)} CPU    ${median(runs.map((run) => run.cpuS))
      .toFixed(2)
      .padStart(5)} s    runs ${values((run) => run.cpuS, 2)}`,
    `  ${''.padEnd(38)} RSS    ${median(runs.map((run) => run.rssMiB))
      .toFixed(0)
      .padStart(5)} MiB  at the first answer`,
  ].join('\n');
}

runFocusedBench(ROOT, 'startup_test', async (tool, databaseUrl) => {
  const loadAtStart = loadavg();
  // Untimed: the first start on the new database runs the migrations, and this one creates the
  // embedded database that the "initialised" case then reopens.
  const initialised = newDataDir();
  await timedStart({ DATABASE_URL: databaseUrl });
  await timedStart({ DATA_DIR: initialised });

  const cases = [
    { name: 'PostgreSQL', env: () => ({ DATABASE_URL: databaseUrl }), runs: [] },
    { name: 'PGlite, initialised DATA_DIR', env: () => ({ DATA_DIR: initialised }), runs: [] },
    { name: 'PGlite, empty DATA_DIR (first-ever)', env: () => ({ DATA_DIR: newDataDir() }), runs: [] },
  ];
  for (let round = 0; round < RUNS; round++) {
    for (const kase of cases) kase.runs.push(await timedStart(kase.env()));
  }
  const memory = await embeddedMemory(tool, initialised);

  console.log(
    `\nStart-up to the first 200 on /readyz: node ${process.version}, ${availableParallelism()} cores, ${RUNS} runs per case, alternating`,
  );
  console.log(
    `load average ${loadAtStart.map((value) => value.toFixed(1)).join(' ')} at the start, ${loadavg()
      .map((value) => value.toFixed(1))
      .join(' ')} at the end`,
  );
  for (const kase of cases) console.log(caseLine(kase.name, kase.runs));
  const rate = (result) => `${result.rps.toFixed(0)} req/s, p99 ${result.p99Ms.toFixed(1)} ms`;
  console.log(`\nPGlite memory (RSS), initialised DATA_DIR, ${tool}, ${LOAD_CONNECTIONS} connections, ${LOAD_SECONDS} s each:`);
  console.log(
    `  idle ${mib(memory.idleKiB)} MiB; peak ${mib(memory.peakKiB)} MiB under creates (${rate(memory.create)}) then lists of 20 (${rate(memory.list)}); idle after ${mib(memory.afterKiB)} MiB`,
  );
});
