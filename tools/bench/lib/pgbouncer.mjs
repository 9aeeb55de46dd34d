// PgBouncer for the scale-out bench: Debian's package (installed with apt-get when missing and we
// are root, as wrk is), run as a tracked child process in transaction mode, not as a service.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { freePort, runCommand, spawnTracked } from './processes.mjs';

/** The configuration the e2e suite's pooled target uses too, with {{name}} fields. */
const INI_TEMPLATE = join(dirname(fileURLToPath(import.meta.url)), '../../pgbouncer/pgbouncer.ini');

/** Debian's package installs it in /usr/sbin, which is not on every user's PATH. */
const CANDIDATES = ['/usr/sbin/pgbouncer', '/usr/bin/pgbouncer'];

function findPgBouncer() {
  const onPath = spawnSync('sh', ['-c', 'command -v pgbouncer'], { encoding: 'utf8' }).stdout.trim();
  return onPath || CANDIDATES.find((candidate) => existsSync(candidate));
}

/** The pgbouncer binary; installs Debian's package when it is missing and we are root. */
export async function ensurePgBouncer() {
  const found = findPgBouncer();
  if (found) return found;
  if (process.getuid?.() !== 0) throw new Error('pgbouncer is not installed: apt-get install pgbouncer');
  console.log('pgbouncer not found: apt-get install -y pgbouncer');
  await runCommand('apt-get', ['update', '-qq']);
  await runCommand('apt-get', ['install', '-y', '-qq', 'pgbouncer'], { env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  return findPgBouncer();
}

/**
 * Starts PgBouncer on a free port of 127.0.0.1 in transaction mode in front of the server of
 * `databaseUrl` (trust authentication, as the bench's PostgreSQL; `poolSize` server connections
 * per database) and waits until a query goes through it. Returns `databaseUrl` through PgBouncer.
 * The child is tracked: the bench's stopAll() stops it.
 */
export async function startPgBouncer(databaseUrl, { poolSize }) {
  const binary = await ensurePgBouncer();
  const upstream = new URL(databaseUrl);
  const port = await freePort();
  // Readable by the unprivileged user PgBouncer switches to when started as root (it refuses to run as root).
  const dir = mkdtempSync(join(tmpdir(), 'petstore-bench-pgbouncer-'));
  chmodSync(dir, 0o755);
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'userlist.txt'), `"${decodeURIComponent(upstream.username) || 'postgres'}" ""\n`, { mode: 0o644 });
  const ini = readFileSync(INI_TEMPLATE, 'utf8').replace(/\{\{(\w+)\}\}/g, (_match, name) =>
    String({ host: upstream.hostname, upstreamPort: upstream.port || 5432, port, authFile: join(dir, 'userlist.txt'), poolSize }[name]),
  );
  writeFileSync(join(dir, 'pgbouncer.ini'), ini, { mode: 0o644 });
  const asRoot = process.getuid?.() === 0 ? ['-u', 'nobody'] : [];
  const child = spawnTracked(binary, [...asRoot, join(dir, 'pgbouncer.ini')]);
  const url = new URL(databaseUrl);
  url.host = `127.0.0.1:${port}`;
  const deadline = performance.now() + 15_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`pgbouncer exited (${child.exitCode}):\n${child.output}`);
    const client = new pg.Client({ connectionString: url.toString(), connectionTimeoutMillis: 1000 });
    try {
      await client.connect();
      try {
        await client.query('SELECT 1');
        return { url: url.toString(), child };
      } finally {
        await client.end();
      }
    } catch (error) {
      if (performance.now() > deadline) throw new Error(`pgbouncer did not serve ${url.host}: ${error.message}\n${child.output}`);
    }
    await sleep(100);
  }
}
