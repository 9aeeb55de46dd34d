import { describeOn, target } from './support/api';
import { CuttableProxy } from './support/cuttable-proxy';
import { operations, urlOf } from './support/document';
import { AUTH, databaseEnv, startServer, type RunningServer } from './support/server';

describeOn('postgres', 'pooled')('database outage', () => {
  let proxy: CuttableProxy;
  let server: RunningServer;

  beforeAll(async () => {
    // In front of what the service reaches: PostgreSQL, or PgBouncer on the pooled target.
    const env = databaseEnv(target);
    const proxied = await CuttableProxy.inFrontOf(env.DATABASE_URL);
    proxy = proxied.proxy;
    server = await startServer({ ...env, DATABASE_URL: proxied.url });
  });

  afterAll(async () => {
    await server?.stop();
    await proxy?.cut();
  });

  it('answers 503 within 2 s while the database is down, and recovers by itself', async () => {
    expect((await fetch(`${server.url}/v1/pets`, { headers: AUTH })).status).toBe(200);
    await proxy.cut();

    // Every operation of the document, as its example request, and the readiness probe.
    const requests: Array<[string, RequestInit]> = [
      ...operations.map((operation): [string, RequestInit] => [
        urlOf(operation),
        operation.bodyExample === undefined
          ? { method: operation.method }
          : { method: operation.method, body: operation.bodyExample, headers: { ...AUTH, 'content-type': 'application/json' } },
      ]),
      ['/readyz', {}],
    ];
    for (const [path, init] of requests) {
      const started = Date.now();
      const response = await fetch(`${server.url}${path}`, { headers: AUTH, ...init });
      expect(Date.now() - started).toBeLessThan(2000);
      expect(response.status).toBe(503);
      const body = (await response.json()) as { code: string; message: string };
      expect(body.code).toBe('SERVICE_UNAVAILABLE');
      expect(body.message).not.toMatch(/ECONN|127\.0\.0\.1|password|SELECT/);
    }
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);

    await proxy.open();
    const deadline = Date.now() + 10_000;
    let status = 0;
    while (Date.now() < deadline && status !== 200) {
      status = (await fetch(`${server.url}/v1/pets`, { headers: AUTH })).status;
      if (status !== 200) await new Promise((done) => setTimeout(done, 200));
    }
    expect(status).toBe(200);
    expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
  });
});
