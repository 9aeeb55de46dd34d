import { resolve } from 'node:path';
import { type ExitResult, runToExit } from './run-to-exit';
import { SUITE_NODE_FLAGS } from './server';

const CLI = resolve(__dirname, '../../../../dist/tools/keys/main.js');

/** Runs the built key CLI (what `npm run keys -- …` runs) with these database variables, on the suite's V8 flags. */
export function runKeysCli(args: readonly string[], env: Record<string, string>): Promise<ExitResult> {
  return runToExit(process.execPath, [...SUITE_NODE_FLAGS, CLI, ...args], { env: { PATH: process.env.PATH ?? '', ...env } });
}

/** Issues a key with the CLI and returns it. */
export async function createKey(name: string, env: Record<string, string>): Promise<string> {
  const result = await runKeysCli(['create', '--name', name], env);
  if (result.code !== 0) throw new Error(`keys create failed (${result.code}): ${result.stderr}`);
  return result.stdout.trim();
}
