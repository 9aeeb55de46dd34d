// Where one server's CPU per request goes beyond another's: by default the built service against the
// floor (baseline/nest-floor-server.mjs); PROFILE_PAIR=floor,bare (or any two of service, floor,
// parity, bare) compares others. Each case runs against both, each under V8's sampling profiler, on a
// throw-away PostgreSQL database with 10k pets; the samples taken while the load ran are summed by
// package (or by our own lib) and divided by the requests served, and the rows that differ most are
// printed. The service runs unbundled (swc's modules, --no-bundle), so that each sample names where it ran.
// BENCH_CASES picks cases (list20,list100,get,create), BENCH_DURATION the seconds of load,
// BENCH_CONNECTIONS the connections (8), PROFILE_BY=function groups by function instead.
// See tools/bench/README.md.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runFocusedBench, startService } from './lib/compare.mjs';
import { growTo } from './lib/database.mjs';
import { runLoad } from './lib/load.mjs';
import { stop } from './lib/processes.mjs';
import { BENCH_RATE_LIMIT_PER_MINUTE } from './lib/service-env.mjs';
import { serviceFacts } from './lib/service-facts.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../..');
const SECONDS = Number(process.env.BENCH_DURATION ?? 6);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 8);
const ROWS = process.env.PROFILE_ROWS ?? 40;
const API_KEY = `bench-${randomBytes(12).toString('hex')}`;
const CASES = [
  { name: 'list20', request: { kind: 'path', path: '/v1/pets?limit=20' } },
  { name: 'list100', request: { kind: 'path', path: '/v1/pets?limit=100' } },
  { name: 'get', request: { kind: 'get', path: '/v1/pets/1', maxId: 10_000 } },
  { name: 'create', request: { kind: 'create', path: '/v1/pets' } },
].filter((kase) => !process.env.BENCH_CASES || process.env.BENCH_CASES.split(',').includes(kase.name));

const nowMicros = () => Number(process.hrtime.bigint() / 1000n);

/** Profiles one server under one case: µs of CPU per request by group, from the samples taken during the measured load. */
async function profile(tool, kase, { script, env }) {
  const dir = mkdtempSync(join(tmpdir(), 'petstore-profile-'));
  try {
    const server = await startService(ROOT, { script, apiKey: API_KEY, env, nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${dir}`] });
    const load = (seconds) =>
      runLoad(tool, { baseUrl: server.url, apiKey: API_KEY, request: kase.request, connections: CONNECTIONS, seconds });
    await load(2);
    const from = nowMicros();
    const { rps } = await load(SECONDS);
    const to = nowMicros();
    await stop(server.child);
    return { rps, byGroup: samplesPerRequest(join(dir, readdirSync(dir)[0]), from, to, rps * ((to - from) / 1e6)) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The profile's samples between `from` and `to` (the same monotonic clock, in µs), by group, per request. */
function samplesPerRequest(file, from, to, requests) {
  const { nodes, samples, timeDeltas, startTime } = JSON.parse(readFileSync(file, 'utf8'));
  const frames = new Map(nodes.map((node) => [node.id, node.callFrame]));
  const byGroup = new Map();
  let at = startTime;
  samples.forEach((id, index) => {
    at += timeDeltas[index];
    const frame = frames.get(id);
    if (at < from || at > to || frame.functionName === '(idle)') return;
    const group = groupOf(frame);
    byGroup.set(group, (byGroup.get(group) ?? 0) + (timeDeltas[index + 1] ?? 0) / requests);
  });
  return byGroup;
}

/** A package, one of our libs, Node's own module, or V8's entry (GC, native code); with PROFILE_BY=function, the function too. */
function groupOf({ functionName, url }) {
  const path = url.replace(/^file:\/\//, '');
  const where =
    /node_modules\/((@[^/]+\/)?[^/]+)/.exec(path)?.[1] ??
    /\/(libs\/[^/]+|apps\/[^/]+|tools\/bench)\//.exec(path)?.[1] ??
    (path.startsWith('node:') ? path : path ? 'other' : 'native');
  return process.env.PROFILE_BY === 'function' || where === 'native' ? `${where} ${functionName || '(anonymous)'}` : where;
}

const [FIRST, SECOND] = (process.env.PROFILE_PAIR ?? 'service,floor').split(',');

function report(kase, first, second) {
  const total = (byGroup) => [...byGroup.values()].reduce((sum, value) => sum + value, 0);
  console.log(
    `\n${kase.name} at ${CONNECTIONS} connections: ${FIRST} ${total(first.byGroup).toFixed(1)} µs/request (${Math.round(first.rps)} req/s), ` +
      `${SECOND} ${total(second.byGroup).toFixed(1)} (${Math.round(second.rps)} req/s)`,
  );
  console.log(`  ${`${FIRST} − ${SECOND}`.padStart(15)} ${FIRST.padStart(9)} ${SECOND.padStart(8)}   where`);
  const groups = [...new Set([...first.byGroup.keys(), ...second.byGroup.keys()])];
  const rows = groups.map((group) => [group, first.byGroup.get(group) ?? 0, second.byGroup.get(group) ?? 0]);
  rows.sort((a, b) => Math.abs(b[1] - b[2]) - Math.abs(a[1] - a[2]));
  for (const [group, ours, theirs] of rows.slice(0, ROWS)) {
    console.log(`  ${(ours - theirs).toFixed(2).padStart(15)} ${ours.toFixed(2).padStart(9)} ${theirs.toFixed(2).padStart(8)}   ${group}`);
  }
}

// Unbundled, so that each sample names its package or lib (the bundle is one file).
runFocusedBench(
  ROOT,
  'profile',
  async (tool, databaseUrl) => {
    // The service's first start creates the schema; the floor needs the statements the service sends.
    const migrating = await startService(ROOT, { apiKey: API_KEY, env: { DATABASE_URL: databaseUrl } });
    await stop(migrating.child);
    await growTo(databaseUrl, 0, 10_000);
    const facts = await serviceFacts(ROOT, { perKeyPerMinute: BENCH_RATE_LIMIT_PER_MINUTE });
    const baseline = (script) => ({ script, env: { DATABASE_URL: databaseUrl, API_KEY, SERVICE_FACTS: JSON.stringify(facts) } });
    const servers = {
      service: { env: { DATABASE_URL: databaseUrl } },
      floor: baseline('tools/bench/baseline/nest-floor-server.mjs'),
      parity: baseline('tools/bench/baseline/parity-server.mjs'),
      bare: baseline('tools/bench/baseline/server.mjs'),
    };
    if (!servers[FIRST] || !servers[SECOND]) throw new Error(`PROFILE_PAIR names two of ${Object.keys(servers).join(', ')}`);
    for (const kase of CASES) report(kase, await profile(tool, kase, servers[FIRST]), await profile(tool, kase, servers[SECOND]));
  },
  { buildArgs: ['--no-bundle'] },
);
