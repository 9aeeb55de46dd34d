import { Agent, get } from 'node:http';
import { connect } from 'node:net';
import { join } from 'node:path';
import { describeOn, target } from './support/api';
import { operations, urlOf } from './support/document';
import { tempDir } from './support/leftovers';
import {
  AUTH,
  databaseEnv,
  expectCleanExit,
  outputOnceItShows,
  runServerToExit,
  startServer,
  stopCleanly,
  testDatabaseUrl,
} from './support/server';

const json = { ...AUTH, 'content-type': 'application/json' };

/** Polls `condition` every 10 ms; fails naming `what` if it does not hold within `timeoutMs`. */
async function waitFor(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`Waited ${timeoutMs} ms for ${what}`);
    await new Promise((done) => setTimeout(done, 10));
  }
}

/** Whether a new connection to the server is refused (it has stopped accepting). */
function refusesConnections(hostname: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = connect(port, hostname);
    probe.once('connect', () => {
      probe.destroy();
      resolve(false);
    });
    probe.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'));
  });
}

/** A GET's status and Connection header, on `agent`'s connections (a kept-alive one, or a new one each time). */
function statusAndConnection(url: string, agent: Agent, headers: Record<string, string> = {}): Promise<[number, string | undefined]> {
  return new Promise((resolve, reject) => {
    get(url, { agent, headers }, (response) => {
      response.resume();
      response.once('end', () => resolve([response.statusCode ?? 0, response.headers.connection]));
    }).once('error', reject);
  });
}

// Every test starts its servers on a database of its own (databaseEnv: a copy of an empty one on
// PGlite), so that none waits on another's data directory or lock, whatever the order.
describeOn('pglite', 'postgres')('service lifecycle', () => {
  it('keeps pets across a restart and stops cleanly on SIGTERM', async () => {
    const env = databaseEnv(target);
    const first = await startServer(env);
    const created = await fetch(`${first.url}/v1/pets`, {
      method: 'POST',
      headers: json,
      body: '{"name":"Survivor","categoryId":9223372036854775807}',
    });
    expect(created.status).toBe(201);
    const id = /"id":(\d+)/.exec(await created.text())![1];
    await stopCleanly(first);

    const second = await startServer(env);
    try {
      const fetched = await fetch(`${second.url}/v1/pets/${id}`, { headers: AUTH });
      expect(await fetched.text()).toBe(`{"id":${id},"name":"Survivor","categoryId":9223372036854775807,"status":"available"}`);
    } finally {
      await stopCleanly(second);
    }
  });

  // On PGlite the killed process leaves its lock behind: the second start takes it over.
  it('keeps every acknowledged pet when the process is killed (SIGKILL), and starts again', async () => {
    const env = databaseEnv(target);
    const first = await startServer(env);
    const created = await fetch(`${first.url}/v1/pets`, { method: 'POST', headers: json, body: '{"name":"Crash","categoryId":7}' });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: number };
    await first.stop('SIGKILL');

    const second = await startServer(env);
    try {
      expect(await (await fetch(`${second.url}/v1/pets/${id}`, { headers: AUTH })).json()).toEqual({
        id,
        name: 'Crash',
        categoryId: 7,
        status: 'available',
      });
    } finally {
      await second.stop();
    }
  });

  it('finishes a request in flight before it exits', async () => {
    const server = await startServer(databaseEnv(target));
    const { hostname, port } = new URL(server.url);
    const body = '{"name":"Late","categoryId":1}';
    // The headers and half the body, SIGTERM, then the rest. Each step waits for the server's own
    // sign, not for a fixed time that a loaded machine can outlast: Node answers 100 Continue as it
    // hands the request over (it is in flight from then on), and a server shutting down refuses
    // new connections (docs/operations.md: stop accepting) while it waits for the rest of this body.
    const socket = connect(Number(port), hostname);
    await new Promise((done) => socket.once('connect', done));
    let answer = '';
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
    const closed = new Promise((done) => socket.once('close', done));
    socket.write(
      `POST /v1/pets HTTP/1.1\r\nHost: ${hostname}\r\nAuthorization: ${AUTH.authorization}\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${body.length}\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n`,
    );
    await waitFor(() => answer.includes('\r\n\r\n'), 'the interim answer to Expect: 100-continue');
    expect(answer).toMatch(/^HTTP\/1\.1 100 Continue\r\n/);
    socket.write(body.slice(0, 10));
    const stopped = server.stop('SIGTERM');
    await waitFor(() => refusesConnections(hostname, Number(port)), 'the server to stop accepting connections after SIGTERM');
    expect(answer).not.toMatch(/HTTP\/1\.1 [2-5]\d\d /);
    socket.write(body.slice(10));
    await closed;
    expect(answer).toMatch(/^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 201 /);
    expectCleanExit(server, await stopped);
  });

  it('drains on SIGTERM: out of readiness at once, still serving, each answer closing its connection; then it stops accepting', async () => {
    const drainMs = 3000;
    const server = await startServer({ ...databaseEnv(target), SHUTDOWN_DRAIN_MS: String(drainMs), LOG_LEVEL: 'info' });
    const { hostname, port } = new URL(server.url);
    const keptAlive = new Agent({ keepAlive: true, maxSockets: 1 });
    const fresh = new Agent({ keepAlive: false });
    try {
      expect(await statusAndConnection(`${server.url}/v1/pets`, keptAlive, AUTH)).toEqual([200, 'keep-alive']);
      const signalled = Date.now();
      const stopped = server.stop('SIGTERM');
      await waitFor(async () => (await statusAndConnection(`${server.url}/readyz`, fresh))[0] === 503, '/readyz to answer 503');
      expect(await statusAndConnection(`${server.url}/v1/pets`, keptAlive, AUTH)).toEqual([200, 'close']);
      expect(await statusAndConnection(`${server.url}/v1/pets`, fresh, AUTH)).toEqual([200, 'close']);
      expect((await statusAndConnection(`${server.url}/healthz`, fresh))[0]).toBe(200);
      await waitFor(() => refusesConnections(hostname, Number(port)), 'the server to stop accepting connections after its drain');
      expect(Date.now() - signalled).toBeGreaterThanOrEqual(drainMs);
      expectCleanExit(server, await stopped);
      expect(await outputOnceItShows(server, `Draining for ${drainMs} ms`)).toContain(`Draining for ${drainMs} ms`);
    } finally {
      keptAlive.destroy();
      fresh.destroy();
    }
  });

  // Each rule is libs/config's to test (app-config.spec.ts); the process shows that a refused start
  // exits 1 naming every problem at once.
  it('refuses to start on an invalid configuration, naming every problem at once', async () => {
    // An invalid PORT, an unknown LOG_LEVEL, a DATABASE_URL that is not PostgreSQL, production without API keys.
    const problems = { PORT: 'eighty', LOG_LEVEL: 'loud', DATABASE_URL: 'mysql://localhost/test', API_KEYS: '' };
    const { code, output } = await runServerToExit({ DATA_DIR: tempDir('refused'), NODE_ENV: 'production', ...problems });
    expect(code).toBe(1);
    for (const variable of Object.keys(problems)) expect(output).toMatch(new RegExp(`\\b${variable} must `));
  });

  it('says where it serves, on which database and which migrations ran; Nest maps its routes at debug level only', async () => {
    const server = await startServer({ ...databaseEnv(target), LOG_LEVEL: 'info' });
    try {
      const output = await outputOnceItShows(server, 'Serving the API');
      expect(output).toContain(`Serving the API at ${server.url}/v1 and its documentation at ${server.url}/docs`);
      expect(output).toMatch(
        target === 'pglite' ? /Database: embedded PostgreSQL \(PGlite\) in \// : /Database: PostgreSQL database "\w+" at /,
      );
      expect(output).toMatch(/Migrations: (none pending|applied \w+)/);
      expect(output).not.toContain('Mapped {');
      expect(output).not.toContain('dependencies initialized');
    } finally {
      await server.stop();
    }
  });

  it('creates a development key when no API_KEYS are set, prints it that once, and keeps it', async () => {
    const developmentEnv: Record<string, string> = { ...databaseEnv(target), API_KEYS: '', NODE_ENV: 'development' };
    const first = await startServer(developmentEnv);
    let key: string;
    try {
      key = /development API key[^:]*: (\S+)/.exec(first.output())?.[1] ?? '';
      expect(key).toMatch(/^dev_/);
      expect((await fetch(`${first.url}/v1/pets`, { headers: { authorization: `Bearer ${key}` } })).status).toBe(200);
    } finally {
      await first.stop();
    }

    const second = await startServer(developmentEnv);
    try {
      expect(second.output()).toContain(`development API key kept in ${join(developmentEnv.DATA_DIR, 'dev-api-key')}`);
      expect(second.output()).not.toContain(key);
      expect((await fetch(`${second.url}/v1/pets`, { headers: { authorization: `Bearer ${key}` } })).status).toBe(200);
    } finally {
      await second.stop();
    }
  });

  if (target === 'postgres') {
    it('refuses to start on a database the server does not have, saying to create it', async () => {
      const missing = new URL(testDatabaseUrl());
      missing.pathname = `/petstore_missing_${process.pid}`;
      const { code, output } = await runServerToExit({ DATA_DIR: tempDir('refused'), API_KEYS: 'k', DATABASE_URL: missing.href });
      expect(code).toBe(1);
      expect(output).toContain(
        `The PostgreSQL database "petstore_missing_${process.pid}" at ${missing.hostname}:${missing.port || 5432} does not exist: create it first`,
      );
    });

    it('serves with unnamed statements when DATABASE_PREPARED_STATEMENTS=false (for poolers that cannot keep them)', async () => {
      const server = await startServer({ ...databaseEnv(target), DATABASE_PREPARED_STATEMENTS: 'false' });
      try {
        // Every operation of the document, as its example request, its path parameters naming a pet of its own.
        for (const operation of operations) {
          const created = await fetch(`${server.url}/v1/pets`, {
            method: 'POST',
            headers: json,
            body: '{"name":"Unnamed","categoryId":3}',
          });
          expect(created.status).toBe(201);
          const { id } = (await created.json()) as { id: number };
          const path = urlOf(operation, Object.fromEntries(operation.parameters.map((parameter) => [parameter.name, String(id)])));
          const body = operation.bodyExample;
          const response = await fetch(`${server.url}${path}`, { method: operation.method, headers: body ? json : AUTH, body });
          expect({ operation: operation.operationId, succeeded: response.ok }).toEqual({
            operation: operation.operationId,
            succeeded: true,
          });
        }
        expect((await fetch(`${server.url}/v1/pets?status=available&limit=5`, { headers: AUTH })).status).toBe(200);
      } finally {
        await server.stop();
      }
    });
  }

  if (target === 'pglite') {
    it('refuses a second process on the same data directory', async () => {
      const env = databaseEnv(target);
      const first = await startServer(env);
      try {
        const { code, output } = await runServerToExit({ ...env, API_KEYS: 'k' });
        expect(code).toBe(1);
        expect(output).toContain('in use by process');
      } finally {
        await first.stop();
      }
    });
  }
});
