// Shared by the focused benches (auth-cost, scale-out, heap-growth): start the built service, and measure
// variants of one request alternately.
import { join } from 'node:path';
import { createDatabase, databaseUrl, dropDatabase } from './database.mjs';
import { ensureLoadTool, runLoad } from './load.mjs';
import { cleanUpWhenInterrupted, freePort, runCommand, spawnTracked, stopAll, waitFor200 } from './processes.mjs';
import { median } from './report.mjs';
import { benchServiceEnv } from './service-env.mjs';

const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/**
 * Builds the service (`buildArgs` go to the build: `--no-bundle` for swc's modules alone), runs
 * `work(tool, databaseUrl)` on a throw-away database next to BENCH_DATABASE_URL, then stops every
 * child, drops the database and exits (1 on failure), interrupted or not.
 */
export function runFocusedBench(root, name, work, { buildArgs = [] } = {}) {
  const database = `petstore_bench_${name}_${Date.now()}`;
  let created = false;
  const cleanup = cleanUpWhenInterrupted(async () => {
    await stopAll();
    if (created) await dropDatabase(ADMIN_URL, database);
  });
  const run = async () => {
    const tool = await ensureLoadTool(process.env.BENCH_TOOL);
    await runCommand('npm', ['run', 'build', ...(buildArgs.length ? ['--', ...buildArgs] : [])], { cwd: root });
    await createDatabase(ADMIN_URL, database);
    created = true;
    await work(tool, databaseUrl(ADMIN_URL, database));
  };
  run().then(
    () => cleanup().then(() => process.exit(0)),
    (error) => {
      // Interrupted: cleanUpWhenInterrupted is cleaning up and exits with its own code.
      if (cleanup.started()) return;
      console.error(error);
      void cleanup().finally(() => process.exit(1));
    },
  );
}

/**
 * Starts `script` (the built service by default) in production mode with a limiter that never
 * refuses; `nodeArgs` go to node. Resolves once `readyPath` answers 200, with the time that took.
 */
export async function startService(
  root,
  { script = 'dist/apps/api/src/main.js', apiKey, env, nodeArgs = [], readyPath = '/v1/pets?limit=1' },
) {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const since = performance.now();
  const child = spawnTracked(process.execPath, [...nodeArgs, join(root, script)], {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      PORT: String(port),
      ...benchServiceEnv(apiKey),
      ...env,
    },
  });
  const startMs = await waitFor200(`${url}${readyPath}`, { headers: { authorization: `Bearer ${apiKey}` }, child, since });
  return { child, url, startMs };
}

/**
 * Runs `request` (or the variant's own `request`) against each variant ({ name, url, apiKey,
 * request? }) in turn, `reps` times after a 1 s warm-up each, and returns per variant the median
 * req/s, p50 and p99, the summed errors, its req/s relative to the first variant, and its runs.
 * `watch(variant)`, if given, is called as each measured run starts; the function it returns is
 * called with the run's result when it ends, and what that returns is added to the run.
 */
export async function alternate(tool, variants, request, { connections, reps, seconds, watch }) {
  const load = (variant, duration) =>
    runLoad(tool, { baseUrl: variant.url, apiKey: variant.apiKey, request: variant.request ?? request, connections, seconds: duration });
  const measure = async (variant) => {
    const finish = watch?.(variant);
    const result = await load(variant, seconds);
    return { ...result, ...finish?.(result) };
  };
  const runs = variants.map(() => []);
  for (const variant of variants) await load(variant, 1);
  for (let rep = 0; rep < reps; rep++) {
    for (const [index, variant] of variants.entries()) runs[index].push(await measure(variant));
  }
  const results = variants.map((variant, index) => ({
    name: variant.name,
    rps: median(runs[index].map((run) => run.rps)),
    p50Ms: median(runs[index].map((run) => run.p50Ms)),
    p99Ms: median(runs[index].map((run) => run.p99Ms)),
    errors: runs[index].reduce((sum, run) => sum + run.errors, 0),
    runs: runs[index],
  }));
  return results.map((result) => ({ ...result, relative: result.rps / results[0].rps }));
}

/** One printed line per variant. */
export function formatVariant(label, result) {
  const ms = (value) => `${value.toFixed(2).padStart(6)} ms`;
  return `  ${label.padEnd(52)} ${result.rps.toFixed(0).padStart(6)} req/s (${(result.relative * 100).toFixed(1).padStart(5)} %)  p50 ${ms(result.p50Ms)}  p99 ${ms(result.p99Ms)}  errors ${result.errors}`;
}
