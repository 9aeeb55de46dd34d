// `npm run migrations:previous-release` (CI; docs/operations.md, "Changing the schema"): the release still running during a
// rolling deploy must work on the schema this build migrates to. The previous release is HEAD's parent (PREVIOUS_RELEASE
// names another commit or a tag): main is deployed commit by commit, so the parent is what runs while this one rolls out.
// When its migrations are this build's, nothing changes under it and the check stops there. Otherwise it builds the parent in
// a worktree, migrates a new PostgreSQL database with this build, starts the parent's server on it and calls every operation
// of the parent's own document (its example requests), a keyed create and its replay included. A failure names the
// expand/contract step to take instead.
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pg from 'pg';

const ROOT = resolve(import.meta.dirname, '../..');
const MIGRATIONS = 'libs/persistence/src/lib/migrations';
const SERVER = 'dist/apps/api/src/main.js';
const API_KEY = 'previous-release-check-key-0123456789';
const SERVER_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/petstore_test';
const START_TIMEOUT_MS = 60_000;

/** What the previous release's failure means, by the PostgreSQL error its log names, and the step to take instead. */
const FIXES = [
  [
    /column .* does not exist|42703/,
    'a column the previous release uses was dropped or renamed. Expand, then contract: add the new column beside the old one ' +
      'and write both in this release; drop the old one in a later release, once no running release reads it',
  ],
  [
    /relation .* does not exist|42P01/,
    'a table the previous release uses was dropped or renamed. Expand, then contract: create the new table beside the old one ' +
      'and write both in this release; drop the old one in a later release',
  ],
  [
    /violates not-null constraint|23502/,
    'a column the previous release does not write became NOT NULL without a default. Add it nullable or with a default; ' +
      'backfill, then SET NOT NULL (through a NOT VALID check constraint) in a later release',
  ],
  [
    /invalid input syntax|is of type .* but expression is of type|out of range|22P02|42804|22003/,
    "a column's type changed under the previous release. Add a column of the new type beside the old one, write both, " +
      'move the reads over, and drop the old column in a later release',
  ],
];
const GENERIC_FIX =
  'the schema this build migrates to breaks the release still running during a rolling deploy. Change it in expand and ' +
  'contract steps (docs/operations.md, "Changing the schema")';

function git(...args) {
  return execFileSync('git', args, { cwd: ROOT, encoding: 'utf8' }).trim();
}

function sameFiles(commit, path) {
  try {
    git('diff', '--quiet', commit, 'HEAD', '--', path);
    return true;
  } catch {
    return false;
  }
}

function freePort() {
  return new Promise((done, fail) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => done(port));
    });
    server.once('error', fail);
  });
}

/** The built server of `root` on the database, with its output kept for the failure's message. */
async function startServer(root, databaseUrl, dataDir) {
  const port = await freePort();
  const env = {
    PATH: process.env.PATH,
    NODE_ENV: 'test',
    LOG_LEVEL: 'warn',
    API_KEYS: API_KEY,
    HOST: '127.0.0.1',
    PORT: String(port),
    DATABASE_URL: databaseUrl,
    DATA_DIR: dataDir,
    SHUTDOWN_DRAIN_MS: '0',
  };
  const child = spawn(process.execPath, [join(root, SERVER)], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const exited = new Promise((done) => child.once('exit', done));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + START_TIMEOUT_MS;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server of ${root} exited at start:\n${output}`);
    const ready = await fetch(`${url}/readyz`).then(
      (answer) => answer.ok,
      () => false,
    );
    if (ready) break;
    if (Date.now() > deadline) throw new Error(`the server of ${root} did not start in ${START_TIMEOUT_MS} ms:\n${output}`);
    await new Promise((done) => setTimeout(done, 200));
  }
  return {
    url,
    output: () => output,
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch'];

/** The operations of a document (the previous release's own): method, URL template under its base path, the body's example. */
function operationsOf(document) {
  const base = new URL(document.servers[0].url).pathname.replace(/\/$/, '');
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => HTTP_METHODS.includes(method))
      .map(([method, operation]) => ({
        name: operation.operationId,
        method: method.toUpperCase(),
        path: `${base}${path}`,
        body: Object.values(operation.requestBody?.content?.['application/json']?.examples ?? {})[0]?.value,
        creates: '201' in operation.responses,
        keyed: (operation.parameters ?? []).some((parameter) => parameter.in === 'header' && parameter.name === 'Idempotency-Key'),
      })),
  );
}

/**
 * Every operation of the previous release's document once, as its example request, its path parameters naming a pet of its own
 * (made by the documented create); a create that takes an Idempotency-Key, keyed and replayed too. The first unexpected answer.
 */
async function smoke(url, document) {
  const operations = operationsOf(document);
  const create = operations.find((operation) => operation.creates && operation.body !== undefined);
  const send = (operation, path, headers = {}) =>
    fetch(`${url}${path}`, {
      method: operation.method,
      headers: { authorization: `Bearer ${API_KEY}`, ...(operation.body && { 'content-type': 'application/json' }), ...headers },
      body: operation.body && JSON.stringify(operation.body),
    });
  const failure = async (operation, answer) => `${operation.name} answered ${answer.status}: ${await answer.text()}`;
  for (const operation of operations) {
    const made = await send(create, create.path);
    if (!made.ok) return failure(create, made);
    const { id } = await made.json();
    const answer = await send(operation, operation.path.replace(/\{[^}]+\}/g, String(id)));
    if (!answer.ok) return failure(operation, answer);
    await answer.arrayBuffer();
  }
  for (const operation of operations.filter(({ keyed }) => keyed)) {
    const key = { 'idempotency-key': `"${randomBytes(8).toString('hex')}"` };
    const [first, replay] = [await send(operation, operation.path, key), await send(operation, operation.path, key)];
    if (!first.ok) return failure(operation, first);
    if (replay.headers.get('idempotent-replayed') !== 'true') return `${operation.name} with an Idempotency-Key was not replayed`;
  }
  return undefined;
}

function fixFor(log) {
  return FIXES.find(([pattern]) => pattern.test(log))?.[1] ?? GENERIC_FIX;
}

async function onServer(statement) {
  const client = new pg.Client({ connectionString: Object.assign(new URL(SERVER_URL), { pathname: '/postgres' }).toString() });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

async function main() {
  const previous = process.env.PREVIOUS_RELEASE ?? 'HEAD^';
  let commit;
  try {
    commit = git('rev-parse', '--short', '--verify', '--quiet', `${previous}^{commit}`);
  } catch {
    console.error(`No previous release: ${previous} names no commit here (a shallow clone? git fetch --deepen=1, or set PREVIOUS_RELEASE)`);
    process.exit(1);
  }
  if (sameFiles(previous, MIGRATIONS)) {
    console.log(`previous release ${commit}: its migrations are this build's; nothing changes under it`);
    return;
  }
  const work = mkdtempSync(join(tmpdir(), 'petstore-previous-release-'));
  const tree = join(work, 'tree');
  const base = new URL(SERVER_URL);
  const database = `${base.pathname.slice(1) || 'petstore_test'}_previous_${randomBytes(4).toString('hex')}`;
  const databaseUrl = Object.assign(new URL(SERVER_URL), { pathname: `/${database}` }).toString();
  const servers = [];
  let problem;
  try {
    git('worktree', 'add', '--detach', '--quiet', tree, previous);
    // The same lock: the packages installed here serve it; else its own.
    if (sameFiles(previous, 'package-lock.json')) symlinkSync(join(ROOT, 'node_modules'), join(tree, 'node_modules'));
    else execFileSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: tree, stdio: 'inherit' });
    execFileSync(process.execPath, ['tools/build/build.mjs', '--no-bundle'], { cwd: tree, stdio: ['ignore', 'ignore', 'inherit'] });
    await onServer(`CREATE DATABASE "${database}"`);
    const current = await startServer(ROOT, databaseUrl, join(work, 'current'));
    servers.push(current);
    await current.stop();
    const running = await startServer(tree, databaseUrl, join(work, 'previous')).catch((error) => error);
    if (running instanceof Error) {
      problem = `${running.message}\n\nFix: ${fixFor(running.message)}.`;
    } else {
      servers.push(running);
      const failure = await smoke(running.url, JSON.parse(readFileSync(join(tree, 'openapi/petstore.openapi.json'), 'utf8')));
      // Its log is complete once it has exited.
      await running.stop();
      if (failure) problem = `${failure}\n\nFix: ${fixFor(running.output() + failure)}.\n\nIts log:\n${running.output()}`;
    }
  } finally {
    for (const server of servers) await server.stop();
    await onServer(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`).catch(() => undefined);
    git('worktree', 'remove', '--force', tree);
    rmSync(work, { recursive: true, force: true });
  }
  if (problem) {
    console.error(`The previous release (${commit}) fails on the schema this build migrates to: ${problem}`);
    process.exit(1);
  }
  console.log(`previous release ${commit}: every operation answers on the schema this build migrates to`);
}

await main();
