import { existsSync, readFileSync, rmSync } from 'node:fs';
import type { E2eTarget, RunningServer } from './server';

export default async function globalTeardown(_config: unknown, project: { globals: { e2eTarget: E2eTarget } }): Promise<void> {
  const server = (globalThis as Record<string, unknown>)[`e2eServer_${project.globals.e2eTarget}`] as RunningServer | undefined;
  await server?.stop();
  const countFile = process.env.E2E_CONTRACT_COUNT_FILE;
  if (countFile && existsSync(countFile)) {
    const total = readFileSync(countFile, 'utf8').split('\n').filter(Boolean).map(Number).reduce((sum, count) => sum + count, 0);
    console.log(`\n${total} responses were validated against openapi/petstore.openapi.json`);
    rmSync(countFile);
  }
}
