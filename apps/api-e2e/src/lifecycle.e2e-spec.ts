import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { connect } from 'node:net';
import { join } from 'node:path';
import { target } from './support/api';
import { AUTH, databaseEnv, runServerToExit, startServer } from './support/server';

const json = { ...AUTH, 'content-type': 'application/json' };

describe('service lifecycle', () => {
  // One database for the whole file: its tests run one after the other, each with its own server.
  const env = databaseEnv(target);

  it('keeps pets across a restart and stops cleanly on SIGTERM', async () => {
    const first = await startServer(env);
    const created = await fetch(`${first.url}/v1/pets`, {
      method: 'POST',
      headers: json,
      body: '{"name":"Survivor","categoryId":9223372036854775807}',
    });
    expect(created.status).toBe(201);
    const id = /"id":(\d+)/.exec(await created.text())![1];
    expect(await first.stop('SIGTERM')).toBe(0);

    const second = await startServer(env);
    try {
      const fetched = await fetch(`${second.url}/v1/pets/${id}`, { headers: AUTH });
      expect(await fetched.text()).toBe(`{"id":${id},"name":"Survivor","categoryId":9223372036854775807,"status":"available"}`);
    } finally {
      expect(await second.stop('SIGTERM')).toBe(0);
    }
  });

  it('keeps every acknowledged pet when the process is killed (SIGKILL)', async () => {
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
    const server = await startServer(env);
    const { hostname, port } = new URL(server.url);
    const body = '{"name":"Late","categoryId":1}';
    // Send the headers and half the body, stop the server, then send the rest: the request is
    // in flight for certain when SIGTERM arrives.
    const socket = connect(Number(port), hostname);
    await new Promise((done) => socket.once('connect', done));
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk));
    const closed = new Promise((done) => socket.once('close', done));
    socket.write(
      `POST /v1/pets HTTP/1.1\r\nHost: ${hostname}\r\nAuthorization: ${AUTH.authorization}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body.slice(0, 10)}`,
    );
    await new Promise((done) => setTimeout(done, 200));
    const stopped = server.stop('SIGTERM');
    await new Promise((done) => setTimeout(done, 200));
    socket.write(body.slice(10));
    await closed;
    expect(answer).toMatch(/^HTTP\/1\.1 201 /);
    expect(await stopped).toBe(0);
  });

  it.each([
    ['an invalid PORT', { PORT: 'eighty' }, 'PORT'],
    ['an unknown LOG_LEVEL', { LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
    ['a DATABASE_URL that is not PostgreSQL', { DATABASE_URL: 'mysql://localhost/test' }, 'DATABASE_URL'],
    ['production without API keys', { NODE_ENV: 'production', API_KEYS: '' }, 'API_KEYS'],
  ])('refuses to start with %s, saying why', async (_case, env, variable) => {
    const { code, output } = await runServerToExit({ DATA_DIR: mkdtempSync(join(tmpdir(), 'petstore-e2e-')), API_KEYS: 'k', ...env });
    expect(code).toBe(1);
    expect(output).toContain(variable);
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
    it('serves with unnamed statements when DATABASE_PREPARED_STATEMENTS=false (for poolers that cannot keep them)', async () => {
      const server = await startServer({ ...env, DATABASE_PREPARED_STATEMENTS: 'false' });
      try {
        const created = await fetch(`${server.url}/v1/pets`, { method: 'POST', headers: json, body: '{"name":"Unnamed","categoryId":3}' });
        expect(created.status).toBe(201);
        const { id } = (await created.json()) as { id: number };
        expect((await fetch(`${server.url}/v1/pets/${id}`, { headers: AUTH })).status).toBe(200);
        expect((await fetch(`${server.url}/v1/pets?status=available&limit=5`, { headers: AUTH })).status).toBe(200);
      } finally {
        await server.stop();
      }
    });
  }

  if (target === 'pglite') {
    it('refuses a second process on the same data directory', async () => {
      const first = await startServer(env);
      try {
        const { code, output } = await runServerToExit({ ...env, API_KEYS: 'k' });
        expect(code).toBe(1);
        expect(output).toContain('in use by process');
      } finally {
        await first.stop();
      }
    });

    it('takes over a lock left by a process that no longer runs', async () => {
      writeFileSync(join(env.DATA_DIR, 'petstore.lock'), '999999999');
      const server = await startServer(env);
      await server.stop();
    });
  }
});
