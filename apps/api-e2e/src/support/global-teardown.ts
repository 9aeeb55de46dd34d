import { existsSync, readFileSync, rmSync } from 'node:fs';
import type { PooledTopology } from './pooled-topology';
import type { RunningPrism } from './prism';
import { type E2eTarget, PGLITE_TEMPLATE_VARIABLE, type RunningServer } from './server';

export default async function globalTeardown(_config: unknown, project: { globals: { e2eTarget: E2eTarget } }): Promise<void> {
  const server = (globalThis as Record<string, unknown>)[`e2eServer_${project.globals.e2eTarget}`] as RunningServer | undefined;
  await server?.stop();
  const topology = (globalThis as Record<string, unknown>)[`e2eTopology_${project.globals.e2eTarget}`] as PooledTopology | undefined;
  if (topology) {
    const connections = await topology.stop();
    console.log(`\ne2e:pooled: the load balancer handed ${connections.join(' and ')} connections to the two instances`);
    if (connections.some((count) => count === 0)) throw new Error('The suite did not reach both instances');
  }
  const template = process.env[PGLITE_TEMPLATE_VARIABLE];
  if (project.globals.e2eTarget === 'pglite' && template) {
    rmSync(template, { recursive: true, force: true });
    delete process.env[PGLITE_TEMPLATE_VARIABLE];
  }
  const prism = (globalThis as Record<string, unknown>).e2ePrism as RunningPrism | undefined;
  if (prism) {
    const violations = await prism.stop();
    console.log(`\nPrism reported ${violations.length} response violations`);
    if (violations.length > 0) throw new Error(`The service broke its OpenAPI contract:\n${violations.join('\n')}`);
  }
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
