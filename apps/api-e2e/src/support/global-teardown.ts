import type { E2eTarget, RunningServer } from './server';

export default async function globalTeardown(_config: unknown, project: { globals: { e2eTarget: E2eTarget } }): Promise<void> {
  const server = (globalThis as Record<string, unknown>)[`e2eServer_${project.globals.e2eTarget}`] as RunningServer | undefined;
  await server?.stop();
}
