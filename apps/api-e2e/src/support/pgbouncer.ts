import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from 'pg';
import { track } from './leftovers';
import { freePort } from './server';

/** The configuration the bench uses too (tools/bench/lib/pgbouncer.mjs), with {{name}} fields. */
const INI_TEMPLATE = resolve(__dirname, '../../../../tools/pgbouncer/pgbouncer.ini');

function fillIn(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{\{(\w+)\}\}/g, (_match, name: string) => String(values[name]));
}

/** Debian's package installs it in /usr/sbin, which is not on every user's PATH. */
const CANDIDATES = ['/usr/sbin/pgbouncer', '/usr/bin/pgbouncer'];

export interface RunningPgBouncer {
  /** `database` on the upstream server, through PgBouncer. */
  urlOf(database: string): string;
  /** What PgBouncer wrote so far (its log goes to stderr). */
  output(): string;
  stop(): Promise<void>;
  /** SIGTERM and the configuration removed without waiting, for a process that is exiting. */
  stopNow(): void;
}

/** The pgbouncer binary on PATH or where Debian puts it; undefined when it is not installed. */
export function findPgBouncer(): string | undefined {
  try {
    return execFileSync('sh', ['-c', 'command -v pgbouncer'], { encoding: 'utf8' }).trim() || undefined;
  } catch {
    return CANDIDATES.find((candidate) => existsSync(candidate));
  }
}

/**
 * Starts PgBouncer as a plain child process (not a system service) in transaction mode on a free
 * port of 127.0.0.1, in front of the PostgreSQL server of `upstreamUrl`, for any database on it
 * (`*`), and waits until a query goes through it. Authentication is `trust`, as on the upstream
 * server of the tests; the user of `upstreamUrl` is the only one listed. Its configuration lives
 * in a directory of its own, removed when it stops.
 */
export async function startPgBouncer(upstreamUrl: string, { poolSize = 20 }: { poolSize?: number } = {}): Promise<RunningPgBouncer> {
  const binary = findPgBouncer();
  if (!binary) throw new Error('pgbouncer is not installed: apt-get install pgbouncer (bash .ci/run installs it when missing)');
  const upstream = new URL(upstreamUrl);
  const user = decodeURIComponent(upstream.username) || 'postgres';
  const port = await freePort();
  // Readable by the unprivileged user PgBouncer switches to when started as root (it refuses to run
  // as root): beside the run's root folder, which is its owner's alone; removed when it stops.
  const dir = mkdtempSync(join(tmpdir(), 'petstore-pgbouncer-'));
  chmodSync(dir, 0o755);
  writeFileSync(join(dir, 'userlist.txt'), `"${user}" ""\n`, { mode: 0o644 });
  const ini = fillIn(readFileSync(INI_TEMPLATE, 'utf8'), {
    host: upstream.hostname,
    upstreamPort: upstream.port || '5432',
    port,
    authFile: join(dir, 'userlist.txt'),
    poolSize,
  });
  writeFileSync(join(dir, 'pgbouncer.ini'), ini, { mode: 0o644 });
  const asRoot = process.getuid?.() === 0 ? ['-u', 'nobody'] : [];
  const child: ChildProcess = spawn(binary, [...asRoot, join(dir, 'pgbouncer.ini')], { stdio: ['ignore', 'pipe', 'pipe'] });
  track(child);
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const urlOf = (database: string) => {
    const url = new URL(upstreamUrl);
    url.host = `127.0.0.1:${port}`;
    url.pathname = `/${database}`;
    return url.toString();
  };
  const pgbouncer: RunningPgBouncer = {
    urlOf,
    output: () => output,
    stop: async () => {
      pgbouncer.stopNow();
      await exited;
    },
    stopNow: () => {
      // SIGTERM: immediate shutdown, whoever is still connected.
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      rmSync(dir, { recursive: true, force: true });
    },
  };
  try {
    await waitUntilServing(urlOf(upstream.pathname.slice(1) || 'postgres'), child);
  } catch (error) {
    await pgbouncer.stop();
    throw new Error(`PgBouncer did not start: ${(error as Error).message}\n${output}`);
  }
  return pgbouncer;
}

async function waitUntilServing(url: string, child: ChildProcess, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`exited (${child.exitCode ?? child.signalCode})`);
    const client = new Client({ connectionString: url, connectionTimeoutMillis: 1000 });
    try {
      await client.connect();
      try {
        await client.query('SELECT 1');
        return;
      } finally {
        await client.end();
      }
    } catch (error) {
      if (Date.now() > deadline) throw error;
    }
    await new Promise((done) => setTimeout(done, 100));
  }
}
