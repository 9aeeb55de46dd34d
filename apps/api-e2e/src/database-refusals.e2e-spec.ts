import { Client } from 'pg';
import { describeOn } from './support/api';
import { AUTH, outputOnceItShows, type RunningServer, startServer, testDatabaseUrl } from './support/server';

/** Polls `probe` until it holds, or fails naming `what` after `timeoutMs`. */
async function until(what: string, probe: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((done) => setTimeout(done, 20));
  }
}

/**
 * A database that refuses work: locked by another session, or read-only. Each test runs a service
 * of its own on a database of its own, so that the backends counted and the settings changed are
 * this service's alone.
 */
describeOn('postgres')('a database that refuses work (PostgreSQL)', () => {
  const database = `petstore_refusals_test_${process.pid}_${Date.now()}`;
  let admin: Client;
  let server: RunningServer;
  let url: string;
  let poolSize: number;

  const backends = async (state?: string): Promise<number> => {
    const { rows } = await admin.query<{ count: string }>(
      `SELECT count(*) FROM pg_stat_activity WHERE datname = $1 AND application_name = 'petstore' AND ($2::text IS NULL OR state = $2)`,
      [database, state ?? null],
    );
    return Number(rows[0].count);
  };
  const create = (name: string) =>
    fetch(`${server.url}/v1/pets`, {
      method: 'POST',
      headers: { ...AUTH, 'content-type': 'application/json' },
      body: JSON.stringify({ name, categoryId: 1 }),
    });

  beforeAll(async () => {
    const testUrl = new URL(testDatabaseUrl());
    admin = new Client({ connectionString: testUrl.toString() });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${database}`);
    testUrl.pathname = `/${database}`;
    url = testUrl.toString();
    // In production /metrics is served on PORT only behind METRICS_TOKEN.
    const metricsToken = 'refusals-metrics-token';
    server = await startServer({ DATABASE_URL: url, NODE_ENV: 'production', LOG_LEVEL: 'info', METRICS_TOKEN: metricsToken });
    const metrics = await (await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${metricsToken}` } })).text();
    poolSize = Number(/^petstore_db_pool_max_connections (\d+)$/m.exec(metrics)?.[1]);
    expect(poolSize).toBeGreaterThan(0);
  });

  afterAll(async () => {
    await server?.stop();
    await admin?.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    await admin?.end();
  });

  it('answers 503 within 2 s under a table lock, writes none of those pets, and never holds more backends than its pool', async () => {
    const locker = new Client({ connectionString: url });
    await locker.connect();
    const names = Array.from({ length: 3 * poolSize }, (_, index) => `Locked-${process.pid}-${index}`);
    let mostBackends = 0;
    try {
      await locker.query('BEGIN');
      await locker.query('LOCK TABLE pets IN ACCESS EXCLUSIVE MODE');
      let storming = true;
      const sampling = (async () => {
        while (storming) mostBackends = Math.max(mostBackends, await backends());
      })();
      // Two waves: the second finds the connections the first left, if any were left waiting.
      for (const wave of [names.slice(0, names.length / 2), names.slice(names.length / 2)]) {
        const answers = await Promise.all(
          wave.map(async (name) => {
            const started = Date.now();
            const response = await create(name);
            return {
              status: response.status,
              ms: Date.now() - started,
              retryAfter: response.headers.get('retry-after'),
              body: await response.json(),
            };
          }),
        );
        for (const answer of answers) {
          expect(answer).toEqual({
            status: 503,
            ms: expect.any(Number),
            retryAfter: expect.stringMatching(/^\d+$/),
            body: expect.objectContaining({ code: 'SERVICE_UNAVAILABLE' }),
          });
          expect(answer.ms).toBeLessThan(2000);
        }
      }
      storming = false;
      await sampling;
    } finally {
      await locker.query('ROLLBACK');
      await locker.end();
    }
    expect(mostBackends).toBeGreaterThan(0);
    expect(mostBackends).toBeLessThanOrEqual(poolSize);
    // Anything still running would commit now that the lock is gone: wait until nothing is.
    await until('the service to have no statement running', async () => (await backends('active')) === 0);
    // Read on this test's own database: `admin` is connected to the shared test database.
    const reader = new Client({ connectionString: url });
    await reader.connect();
    try {
      expect((await reader.query(`SELECT name FROM pets WHERE name = ANY($1)`, [names])).rows).toEqual([]);
    } finally {
      await reader.end();
    }
    expect((await create(`AfterLock-${process.pid}`)).status).toBe(201);
  });

  it('answers 503 to writes and 200 to reads while the database is read-only, and /readyz says it is degraded', async () => {
    await admin.query(`ALTER DATABASE ${database} SET default_transaction_read_only = on`);
    try {
      // Connections opened from now on are read-only: end the ones the service holds.
      await admin.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND application_name = 'petstore'`, [
        database,
      ]);
      await until('the service to let go of its terminated connections', async () => (await backends()) === 0);

      const write = await create(`ReadOnly-${process.pid}`);
      expect(write.status).toBe(503);
      expect(write.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(await write.json()).toEqual({ code: 'SERVICE_UNAVAILABLE', message: expect.any(String), status: 503 });
      expect((await fetch(`${server.url}/v1/pets`, { headers: AUTH })).status).toBe(200);
      const ready = await fetch(`${server.url}/readyz`);
      expect(ready.status).toBe(200);
      expect(await ready.json()).toEqual({ status: 'degraded', degraded: [expect.stringContaining('read-only')] });
    } finally {
      await admin.query(`ALTER DATABASE ${database} RESET default_transaction_read_only`);
      await admin.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND application_name = 'petstore'`, [
        database,
      ]);
    }
    await until('writes to be taken again', async () => (await create(`Writable-${process.pid}`)).status === 201);
    expect(await (await fetch(`${server.url}/readyz`)).json()).toEqual({ status: 'ok' });
  });

  it('writes every log line as JSON in production, the pool losing its connections included', async () => {
    await admin.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND application_name = 'petstore'`, [
      database,
    ]);
    const output = await outputOnceItShows(server, /terminat/i);
    expect(output).toMatch(/terminat/i);
    const lines = output.split('\n').filter((line) => line.length > 0);
    expect(lines.filter((line) => !isJson(line))).toEqual([]);
  });

  it('access-logs an answer its router made before any hook ran', async () => {
    const response = await fetch(`${server.url}/v1/pets/%E0%A4%A`);
    expect(response.status).toBe(400);
    const requestId = response.headers.get('x-request-id') ?? 'none';
    const output = await outputOnceItShows(server, requestId);
    const line = output.split('\n').find((candidate) => candidate.includes(requestId) && candidate.includes('"statusCode":400'));
    expect(line).toBeDefined();
  });
});

function isJson(line: string): boolean {
  try {
    JSON.parse(line);
    return true;
  } catch {
    return false;
  }
}
