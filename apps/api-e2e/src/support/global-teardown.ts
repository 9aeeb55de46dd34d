import { existsSync, readFileSync, rmSync } from 'node:fs';
import { removeTempRoot, stopRecorded, TEMP_ROOT_VARIABLE } from './leftovers';
import type { PooledTopology } from './pooled-topology';
import { type E2eTarget, PGLITE_TEMPLATE_VARIABLE, type RunningServer } from './server';

/**
 * Stops what global set-up started for each target of the run (see there: Jest calls both once per
 * run), then any process a test file left running, and removes the run's root folder.
 */
export default async function globalTeardown(_config: unknown, project: { globals: { e2eTargets: readonly E2eTarget[] } }): Promise<void> {
  // Every target is stopped even when another's teardown fails; the failures are reported together.
  const failures: unknown[] = [];
  for (const target of project.globals.e2eTargets) await stopTarget(target).catch((error: unknown) => failures.push(error));
  reportValidatedCount();
  const root = process.env[TEMP_ROOT_VARIABLE];
  if (root) {
    const left = await stopRecorded(root);
    if (left > 0) console.log(`\ne2e: stopped ${left} processes the tests had left running`);
    removeTempRoot(root);
  }
  if (failures.length === 1) throw failures[0];
  if (failures.length > 1) throw new AggregateError(failures, failures.map(String).join('\n'));
}

async function stopTarget(target: E2eTarget): Promise<void> {
  const shared = globalThis as Record<string, unknown>;
  const server = shared[`e2eServer_${target}`] as RunningServer | undefined;
  await server?.stop();
  const template = process.env[PGLITE_TEMPLATE_VARIABLE];
  if (target === 'pglite' && template) {
    rmSync(template, { recursive: true, force: true });
    delete process.env[PGLITE_TEMPLATE_VARIABLE];
  }
  const topology = shared[`e2eTopology_${target}`] as PooledTopology | undefined;
  if (topology) {
    const connections = await topology.stop();
    console.log(`\ne2e:pooled: the load balancer handed ${connections.join(' and ')} connections to the two instances`);
    if (connections.some((count) => count === 0)) throw new Error('The suite did not reach both instances');
  }
}

function reportValidatedCount(): void {
  const countFile = process.env.E2E_CONTRACT_COUNT_FILE;
  if (countFile && existsSync(countFile)) {
    const total = readFileSync(countFile, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map(Number)
      .reduce((sum, count) => sum + count, 0);
    console.log(`\n${total} responses were validated against openapi/petstore.openapi.json`);
    rmSync(countFile);
  }
}
