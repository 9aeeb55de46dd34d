import { type ChildProcess, spawn } from 'node:child_process';
import { cpSync } from 'node:fs';
import { createServer } from 'node:net';
import { resolve } from 'node:path';
import { STOP_GRACE_MS, tempDir, track } from './leftovers';

const MAIN = resolve(__dirname, '../../../../dist/apps/api/src/main.js');

/**
 * How the suite runs the service's node (and the key CLI's): PGlite's WebAssembly on V8's baseline compiler alone.
 * Each of the suite's servers lives for seconds, in which the optimizing compiles of that module
 * never pay back (their cost: docs/development.md, "Test run time"). The service behaves the same;
 * production keeps V8's defaults.
 */
export const SUITE_NODE_FLAGS = ['--liftoff-only'];

/** The key every e2e server accepts. */
export const TEST_API_KEY = 'e2e-test-key-0123456789';
export const AUTH = { authorization: `Bearer ${TEST_API_KEY}` } as const;

/**
 * Where the e2e suite runs: the embedded database; a PostgreSQL database (TEST_DATABASE_URL); or
 * the scale-out topology, two instances behind a load balancer on a database of its own through
 * PgBouncer in transaction mode, sharing Redis (support/pooled-topology.ts).
 */
export type E2eTarget = 'pglite' | 'postgres' | 'pooled';

export interface RunningServer {
  readonly url: string;
  readonly process: ChildProcess;
  /** Everything the server wrote to stdout and stderr so far. */
  output(): string;
  /** Sends a signal and resolves, once the process has exited, with its exit code, or the signal that ended it. */
  stop(signal?: NodeJS.Signals): Promise<number | NodeJS.Signals>;
}

/**
 * How long a server may take to start, or to refuse to start: on a 2-core machine where other test
 * files start servers and fuzz theirs at the same time, a start takes several times as long as alone.
 */
export const START_TIMEOUT_MS = 60_000;

/**
 * Where global set-up keeps an embedded database it created and shut down cleanly, which
 * databaseEnv copies. Creating one (a first start, the migrations included, in WebAssembly) costs
 * far more than a copy, which starts like a restart. Tests that are about creating the data
 * directory give a DATA_DIR of their own.
 */
export const PGLITE_TEMPLATE_VARIABLE = 'E2E_PGLITE_TEMPLATE';

/**
 * A database of the caller's own for a target: a new PGlite directory (a copy of the prepared
 * empty database, when global set-up made one); or, shared by every test of the run (tests tell
 * their rows apart by what they created), the test PostgreSQL, or the pooled target's database
 * through PgBouncer (without named prepared statements, which PgBouncer 1.18 cannot keep).
 */
export function databaseEnv(target: E2eTarget): Record<string, string> {
  const DATA_DIR = tempDir('data');
  if (target === 'pooled') return { DATABASE_URL: pooledUrl('E2E_POOLED_PGBOUNCER_URL'), DATABASE_PREPARED_STATEMENTS: 'false', DATA_DIR };
  if (target === 'postgres') return { DATABASE_URL: testDatabaseUrl(), DATA_DIR };
  const template = process.env[PGLITE_TEMPLATE_VARIABLE];
  if (template) cpSync(template, DATA_DIR, { recursive: true });
  return { DATA_DIR };
}

/**
 * The test database of a PostgreSQL target, straight to PostgreSQL (to prepare or inspect what the
 * services did): TEST_DATABASE_URL, refused unless its database name contains "test" since e2e
 * tests write to it; or the pooled target's own database, which its set-up created.
 */
export function testDatabaseUrl(target: E2eTarget = 'postgres'): string {
  if (target === 'pglite') throw new Error('The pglite target has no PostgreSQL database');
  const url = target === 'pooled' ? pooledUrl('E2E_POOLED_DATABASE_URL') : process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('TEST_DATABASE_URL is not set');
  const database = new URL(url).pathname.slice(1);
  if (!database.includes('test')) throw new Error(`Refusing to run e2e tests against database "${database}": its name lacks "test"`);
  return url;
}

/** A URL the pooled target's global set-up put in the environment. */
function pooledUrl(variable: 'E2E_POOLED_DATABASE_URL' | 'E2E_POOLED_PGBOUNCER_URL'): string {
  const url = process.env[variable];
  if (!url) throw new Error(`${variable} is not set: the pooled target's global set-up did not run`);
  return url;
}

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as { port: number };
  await new Promise((done) => server.close(done));
  return port;
}

/**
 * Starts the built service (`main`: another build's, say a new release's) with these variables (plus a free PORT, unless they
 * name one) and waits until it answers /healthz.
 */
export async function startServer(env: Record<string, string>, timeoutMs = START_TIMEOUT_MS, main = MAIN): Promise<RunningServer> {
  const port = env.PORT ? Number(env.PORT) : await freePort();
  const child = spawn(process.execPath, [...SUITE_NODE_FLAGS, main], {
    env: {
      PATH: process.env.PATH ?? '',
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      API_KEYS: TEST_API_KEY,
      HOST: '127.0.0.1',
      PORT: String(port),
      // No drain on SIGTERM unless a test is about it: no balancer watches these servers.
      SHUTDOWN_DRAIN_MS: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  track(child);
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  // Node gives one of the two: the exit code, or the signal that ended the process.
  const exited = new Promise<number | NodeJS.Signals>((done) =>
    child.once('exit', (code, signal) => done(code ?? (signal as NodeJS.Signals))),
  );
  const server: RunningServer = {
    url: `http://127.0.0.1:${port}`,
    process: child,
    output: () => output,
    stop: async (signal = 'SIGTERM') => {
      if (child.exitCode !== null || child.signalCode !== null) return exited;
      child.kill(signal);
      // A server that does not go within the grace (its shutdown stuck) is killed: none outlives its test.
      const timer = setTimeout(() => {
        output += `\n(still running ${STOP_GRACE_MS * 3} ms after ${signal}: killed by the test)`;
        child.kill('SIGKILL');
      }, STOP_GRACE_MS * 3);
      const ended = await exited;
      clearTimeout(timer);
      return ended;
    },
  };
  await waitUntilAnswering(server, exited, timeoutMs);
  return server;
}

/** Stops the server with SIGTERM; fails, showing its output, unless it exits with 0 (a signal or a stuck shutdown ends it otherwise). */
export async function stopCleanly(server: RunningServer): Promise<void> {
  expectCleanExit(server, await server.stop('SIGTERM'));
}

/** Fails, showing the server's output, unless what `stop('SIGTERM')` resolved with is exit code 0. */
export function expectCleanExit(server: RunningServer, ended: number | NodeJS.Signals): void {
  if (ended !== 0) throw new Error(`The server ended with ${ended} after SIGTERM, not 0. Its output:\n${server.output()}`);
}

/**
 * The server's output once it holds `expected` (or after `timeoutMs`, for the caller's assertion to
 * show): logs travel through pino's transport, a worker thread, and reach stdout a moment after
 * the answer, later still on a busy machine.
 */
export async function outputOnceItShows(server: RunningServer, expected: string | RegExp, timeoutMs = 10_000): Promise<string> {
  const shows = () => (typeof expected === 'string' ? server.output().includes(expected) : expected.test(server.output()));
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline && !shows()) await new Promise((done) => setTimeout(done, 50));
  return server.output();
}

async function waitUntilAnswering(server: RunningServer, exited: Promise<unknown>, timeoutMs: number): Promise<void> {
  let stopped = false;
  void exited.then(() => (stopped = true));
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline && !stopped) {
    try {
      // Each attempt is bounded too: a port that accepts and never answers must not outlast the deadline.
      if ((await fetch(`${server.url}/healthz`, { signal: AbortSignal.timeout(5_000) })).ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((done) => setTimeout(done, 50));
  }
  await server.stop('SIGKILL');
  throw new Error(`The server did not start:\n${server.output()}`);
}

/** Runs the built service to completion (for start-up failures) and returns its exit code and output; killed past `timeoutMs`. */
export async function runServerToExit(
  env: Record<string, string>,
  timeoutMs = START_TIMEOUT_MS,
): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, [...SUITE_NODE_FLAGS, MAIN], {
    env: { PATH: process.env.PATH ?? '', HOST: '127.0.0.1', PORT: String(await freePort()), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  track(child);
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const timer = setTimeout(() => {
    output += `\n(still running after ${timeoutMs} ms: killed by the test)`;
    child.kill('SIGKILL');
  }, timeoutMs);
  const code = await new Promise<number | null>((done) => child.once('exit', (exitCode) => done(exitCode)));
  clearTimeout(timer);
  return { code, output };
}
