// The load generator: wrk (installed with apt-get when missing and we are root), else
// autocannon through npx. Both are reduced to one result shape.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { runCommand } from './processes.mjs';

const WRK_SCRIPT = fileURLToPath(new URL('../wrk/requests.lua', import.meta.url));
export const CREATE_BODY = '{"name":"Bench","categoryId":1}';

const onPath = (command) => spawnSync('sh', ['-c', `command -v ${command}`]).status === 0;

/** 'wrk' or 'autocannon'; BENCH_TOOL=autocannon forces the fallback (to test it). */
export async function ensureLoadTool(forced) {
  if (forced !== 'autocannon') {
    if (onPath('wrk')) return 'wrk';
    if (process.getuid?.() === 0) {
      try {
        console.log('wrk not found: apt-get install -y wrk');
        await runCommand('apt-get', ['update', '-qq']);
        await runCommand('apt-get', ['install', '-y', '-qq', 'wrk'], { env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
        if (onPath('wrk')) return 'wrk';
      } catch (error) {
        console.warn(`Could not install wrk: ${error.message.split('\n')[0]}`);
      }
    }
  }
  const version = (await runCommand('npm', ['view', 'autocannon', 'version'])).trim();
  console.log(`Using autocannon ${version} through npx`);
  return 'autocannon';
}

/**
 * One load run against `baseUrl`. `request` is { kind: 'path' | 'get' | 'create' | 'create-keyed', path, maxId }.
 * 'create-keyed' needs wrk: autocannon's CLI cannot give each request a key of its own.
 * Returns { rps, p50Ms, p99Ms, non2xx, socketErrors, errors, statuses? }.
 */
export async function runLoad(tool, { baseUrl, apiKey, request, connections, seconds, countStatuses }) {
  return tool === 'wrk'
    ? runWrk({ baseUrl, apiKey, request, connections, seconds, countStatuses })
    : runAutocannon({ baseUrl, apiKey, request, connections, seconds });
}

async function runWrk({ baseUrl, apiKey, request, connections, seconds, countStatuses }) {
  const kindArgs = { get: [String(request.maxId)], 'create-keyed': [randomBytes(6).toString('hex')] }[request.kind] ?? [];
  const scriptArgs = [request.kind, ...kindArgs, ...(countStatuses ? ['statuses'] : [])];
  const args = ['-t2', `-c${connections}`, `-d${seconds}s`, '--timeout', '5s', '--latency'];
  args.push('-H', `Authorization: Bearer ${apiKey}`, '-s', WRK_SCRIPT, baseUrl + request.path, '--', ...scriptArgs);
  return parseWrk(await runCommand('wrk', args));
}

/** Reads wrk's text report (with --latency) and the status line our Lua script prints. */
export function parseWrk(text) {
  const field = (regex) => regex.exec(text);
  const socket = field(/Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/);
  const socketErrors = socket ? socket.slice(1).reduce((sum, n) => sum + Number(n), 0) : 0;
  const non2xx = Number(field(/Non-2xx or 3xx responses: (\d+)/)?.[1] ?? 0);
  const statuses = field(/Statuses: 1xx=(\d+) 2xx=(\d+) 3xx=(\d+) 4xx=(\d+) 5xx=(\d+)/);
  return {
    rps: Number(field(/Requests\/sec:\s+([\d.]+)/)[1]),
    p50Ms: wrkMs(field(/^\s+50%\s+([\d.]+\w+)/m)[1]),
    p99Ms: wrkMs(field(/^\s+99%\s+([\d.]+\w+)/m)[1]),
    non2xx,
    socketErrors,
    errors: non2xx + socketErrors,
    ...(statuses && { statuses: Object.fromEntries(['1xx', '2xx', '3xx', '4xx', '5xx'].map((k, i) => [k, Number(statuses[i + 1])])) }),
  };
}

const WRK_UNITS_MS = { us: 0.001, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

function wrkMs(value) {
  const [, number, unit] = /^([\d.]+)(\w+)$/.exec(value);
  return Number(number) * WRK_UNITS_MS[unit];
}

/**
 * autocannon's CLI cannot vary a path per request, so 'get' asks for one id (the middle one)
 * in this fallback; that is noted in its result.
 */
async function runAutocannon({ baseUrl, apiKey, request, connections, seconds }) {
  const path = request.kind === 'get' ? `/v1/pets/${Math.ceil(request.maxId / 2)}` : request.path;
  const args = ['--yes', 'autocannon', '-j', '-c', String(connections), '-d', String(seconds), '-H', `authorization=Bearer ${apiKey}`];
  if (request.kind === 'create') args.push('-m', 'POST', '-H', 'content-type=application/json', '-b', CREATE_BODY);
  const report = JSON.parse(await runCommand('npx', [...args, baseUrl + path]));
  const socketErrors = report.errors + report.timeouts;
  return {
    rps: report.requests.average,
    p50Ms: report.latency.p50,
    p99Ms: report.latency.p99,
    non2xx: report.non2xx,
    socketErrors,
    errors: report.non2xx + socketErrors,
    statuses: { '1xx': report['1xx'], '2xx': report['2xx'], '3xx': report['3xx'], '4xx': report['4xx'], '5xx': report['5xx'] },
    ...(request.kind === 'get' && { note: 'autocannon: one fixed id' }),
  };
}
