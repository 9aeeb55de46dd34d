import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expectError, target } from './support/api';
import { createKey, runKeysCli } from './support/keys-cli';
import { databaseEnv, outputOnceItShows, type RunningServer, startServer } from './support/server';

// Keys issued with the CLI (`npm run keys`), on the target's database: through the running
// service's admin socket on the embedded database, straight to PostgreSQL otherwise.

const KEY = /^ps_[0-9a-f]{12}_[A-Za-z0-9_-]{43}$/;
const env = databaseEnv(target);
// On PostgreSQL the CLI writes to the database and the service notices within its key cache period.
const REVOCATION_DELAY_MS = target === 'pglite' ? 0 : 1000;

let server: RunningServer;

beforeAll(async () => {
  server = await startServer(env);
});

afterAll(async () => {
  await server.stop();
});

const get = (key: string, path = '/v1/pets?limit=1', init: RequestInit = {}) =>
  fetch(`${server.url}${path}`, { ...init, headers: { authorization: `Bearer ${key}`, ...init.headers } });

async function errorOf(response: Response) {
  return { status: response.status, headers: response.headers, text: '', body: await response.json() };
}

describe('issued API keys', () => {
  it('a created key is shown once, on stdout, and works at once', async () => {
    const result = await runKeysCli(['create', '--name', 'e2e created'], env);
    expect(result.code).toBe(0);
    expect(result.stdout.trim()).toMatch(KEY);
    expect(result.stderr).toMatch(/^Created key \d+ "e2e created" \(ps_[0-9a-f]{12}\)/);

    const response = await get(result.stdout.trim());
    expect(response.status).toBe(200);
    expect(response.headers.get('ratelimit-policy')).toBe('"per-key";q=6000;w=60');
  });

  it('a revoked key gets 401 from the next request on', async () => {
    const key = await createKey('e2e revoked', env);
    expect((await get(key)).status).toBe(200);

    const prefix = key.slice(0, 15);
    const revoked = await runKeysCli(['revoke', prefix], env);
    expect(revoked.code).toBe(0);
    expect(revoked.stdout).toMatch(new RegExp(`^Revoked key \\d+ "e2e revoked" \\(${prefix}\\) at \\S+Z\\.\\n$`));
    const revokedAt = / at (\S+Z)\.\n$/.exec(revoked.stdout)?.[1];

    const again = await runKeysCli(['revoke', key], env);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(
      new RegExp(`^Key \\d+ "e2e revoked" \\(${prefix}\\) was already revoked on ${revokedAt}; nothing changed\\.\\n$`),
    );

    await new Promise((done) => setTimeout(done, REVOCATION_DELAY_MS));
    const response = await get(key);
    expectError(await errorOf(response), 401, 'UNAUTHORIZED');
    expect(response.headers.get('www-authenticate')).toBe('Bearer realm="petstore", error="invalid_token"');
  });

  it('revokes by id and by the whole key too', async () => {
    const byId = await createKey('e2e by id', env);
    const list = await runKeysCli(['list'], env);
    const id = new RegExp(`^(\\d+) +e2e by id +${byId.slice(0, 15)}`, 'm').exec(list.stdout)?.[1];
    expect((await runKeysCli(['revoke', id ?? 'missing'], env)).code).toBe(0);

    const whole = await createKey('e2e by key', env);
    expect((await runKeysCli(['revoke', whole], env)).code).toBe(0);

    await new Promise((done) => setTimeout(done, REVOCATION_DELAY_MS));
    expect((await get(byId)).status).toBe(401);
    expect((await get(whole)).status).toBe(401);
  });

  it('refuses a wrong secret under a valid prefix, and logs the prefix, never the secret', async () => {
    const key = await createKey('e2e wrong secret', env);
    const wrong = `${key.slice(0, 16)}${'A'.repeat(43)}`;
    expectError(await errorOf(await get(wrong)), 401, 'UNAUTHORIZED');

    const output = await outputOnceItShows(server, key.slice(0, 15));
    expect(output).toContain(key.slice(0, 15));
    expect(output).not.toContain(wrong.slice(16));
    expect(output).not.toContain(key.slice(16));
  });

  it('does not take an issued key from the query string or the body', async () => {
    const key = await createKey('e2e elsewhere', env);
    expect((await fetch(`${server.url}/v1/pets?access_token=${key}`)).status).toBe(401);
    const post = await fetch(`${server.url}/v1/pets`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Rex', categoryId: 1, access_token: key }),
    });
    expect(post.status).toBe(401);
  });

  it('lists keys with their last use, and never their secrets', async () => {
    const key = await createKey('e2e listed', env);
    await get(key);
    const list = await runKeysCli(['list'], env);
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/^ID +NAME +PREFIX +CREATED +LAST USED +REVOKED$/m);
    const row = list.stdout.split('\n').find((line) => line.includes(key.slice(0, 15)));
    expect(row).toMatch(/e2e listed +ps_[0-9a-f]{12} +\S+Z +\S+Z +-$/);
    expect(list.stdout).not.toContain(key.slice(16));
  });

  it('counts failed authentications in /metrics', async () => {
    await get('ps_000000000000_' + 'a'.repeat(43));
    const metrics = await (await fetch(`${server.url}/metrics`)).text();
    expect(metrics).toMatch(/^petstore_auth_failures_total\{reason="invalid"\} [1-9]\d*$/m);
  });

  it('prints the usage on stdout and exits 0 for --help', async () => {
    const result = await runKeysCli(['--help'], env);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Usage: npm run keys');
  });

  // One of each way out; every command line the CLI reads or refuses: tools/keys/command-line.spec.ts.
  it('says what is wrong, then the usage, on stderr, and exits 2 for no command', async () => {
    const result = await runKeysCli([], env);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^keys: no command given\n\nUsage: npm run keys/);
    expect(result.stdout).toBe('');
  });

  it.each([
    ['an unknown key', ['revoke', '9223372036854775807'], 'No such key: id 9223372036854775807'],
    ['something that is no key', ['revoke', 'hello'], 'hello is neither a key id'],
  ])('exits 1 with a reason for %s', async (_label, args, message) => {
    const result = await runKeysCli(args, env);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(message);
  });
});

(target === 'pglite' ? describe : describe.skip)('the key CLI on the embedded database', () => {
  it('opens the database itself when no service runs, and the service then accepts the key', async () => {
    const dataDir = databaseEnv('pglite');
    const key = await createKey('before start', dataDir);
    const later = await startServer(dataDir);
    try {
      expect((await fetch(`${later.url}/v1/pets`, { headers: { authorization: `Bearer ${key}` } })).status).toBe(200);
    } finally {
      await later.stop();
    }
  });

  it('revokes on the database itself too, and says so when the key was revoked already', async () => {
    const dataDir = databaseEnv('pglite');
    const key = await createKey('revoked twice', dataDir);
    const revoked = await runKeysCli(['revoke', key], dataDir);
    expect(revoked.stdout).toMatch(/^Revoked key \d+ "revoked twice" \(ps_[0-9a-f]{12}\) at \S+Z\.\n$/);
    const again = await runKeysCli(['revoke', key.slice(0, 15)], dataDir);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/^Key \d+ "revoked twice" \(ps_[0-9a-f]{12}\) was already revoked on \S+Z; nothing changed\.\n$/);
  });

  it('says so, and writes nothing, when another process holds the data directory', async () => {
    const dataDir = databaseEnv('pglite');
    writeFileSync(join(dataDir.DATA_DIR, 'petstore.lock'), String(process.pid));
    const result = await runKeysCli(['create', '--name', 'blocked'], dataDir);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`is in use by process ${process.pid}`);
    expect(result.stdout).toBe('');
  });
});
