import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { killRecordedNow, makeTempRoot, removeTempRoot, tempDir } from './leftovers';
import { startPooledTopology } from './pooled-topology';
import { databaseEnv, type E2eTarget, PGLITE_TEMPLATE_VARIABLE, startServer, stopCleanly } from './server';

/**
 * Starts the server shared by the e2e tests of each target of the run (for the pooled target, two
 * instances behind a load balancer); their URLs reach the tests through the environment. Jest runs
 * a global set-up module once per run, not once per project (each distinct path once, with one
 * project's configuration), so this one starts every target's, which each project's globals list.
 */
export default async function globalSetup(_config: unknown, project: { globals: { e2eTargets: readonly E2eTarget[] } }): Promise<void> {
  // One folder for everything the run writes (support/leftovers.ts), removed by the teardown; and,
  // should the run be interrupted before it, when this process exits, with what it started.
  const root = makeTempRoot();
  process.once('exit', () => {
    killRecordedNow(root);
    removeTempRoot(root);
  });
  process.env.E2E_CONTRACT_COUNT_FILE ??= join(root, 'validated.txt');
  for (const target of project.globals.e2eTargets) await startTarget(target);
}

async function startTarget(target: E2eTarget): Promise<void> {
  reportRuntime(target);
  let url: string;
  if (target === 'pooled') {
    const topology = await startPooledTopology();
    (globalThis as Record<string, unknown>)[`e2eTopology_${target}`] = topology;
    url = topology.url;
    process.env[`E2E_INSTANCES_${target}`] = topology.instances.map((instance) => instance.url).join(',');
    console.log(`e2e:pooled: ${topology.instances.length} instances through PgBouncer (transaction mode) sharing Redis, behind ${url}`);
  } else {
    // On PGlite the shared server makes its own database while the template is made beside it:
    // every test file waits for both.
    const [server, template] = await Promise.all([
      startServer(databaseEnv(target)),
      target === 'pglite' ? preparedEmbeddedDatabase() : undefined,
    ]);
    if (template) process.env[PGLITE_TEMPLATE_VARIABLE] = template;
    (globalThis as Record<string, unknown>)[`e2eServer_${target}`] = server;
    url = server.url;
  }
  process.env[`E2E_URL_${target}`] = url;
}

/**
 * An empty embedded database, created once by the service itself (initdb and every migration) and
 * shut down cleanly: databaseEnv copies it for each server that needs a new one (see server.ts).
 */
async function preparedEmbeddedDatabase(): Promise<string> {
  const dataDir = tempDir('template');
  await stopCleanly(await startServer({ DATA_DIR: dataDir }));
  return dataDir;
}

/** Says which node the servers run on: they are spawned with this process's binary, and CI runs
 *  the suite on two Node versions. */
function reportRuntime(target: E2eTarget): void {
  const version = execFileSync(process.execPath, ['--version'], { encoding: 'utf8' }).trim();
  console.log(`\ne2e:${target}: the servers run on node ${version} (${process.execPath})`);
}
