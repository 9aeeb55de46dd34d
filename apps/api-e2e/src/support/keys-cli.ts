import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { track } from './leftovers';

const CLI = resolve(__dirname, '../../../../dist/tools/keys/main.js');

export interface CliResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs the built key CLI (what `npm run keys -- …` runs) with these database variables. */
export async function runKeysCli(args: readonly string[], env: Record<string, string>): Promise<CliResult> {
  const child = spawn(process.execPath, [CLI, ...args], {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  track(child);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const code = await new Promise<number | null>((done) => child.once('exit', done));
  return { code, stdout, stderr };
}

/** Issues a key with the CLI and returns it. */
export async function createKey(name: string, env: Record<string, string>): Promise<string> {
  const result = await runKeysCli(['create', '--name', name], env);
  if (result.code !== 0) throw new Error(`keys create failed (${result.code}): ${result.stderr}`);
  return result.stdout.trim();
}
