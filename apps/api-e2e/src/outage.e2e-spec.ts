import { createServer, type Server, type Socket, connect } from 'node:net';
import { target } from './support/api';
import { AUTH, startServer, testDatabaseUrl, type RunningServer } from './support/server';

/** A TCP proxy in front of PostgreSQL that a test can cut and restore, to play a database outage. */
class CuttableProxy {
  private server?: Server;
  private readonly sockets = new Set<Socket>();

  constructor(
    private readonly upstream: { host: string; port: number },
    readonly port: number,
  ) {}

  async open(): Promise<void> {
    this.server = createServer((client) => {
      const upstream = connect(this.upstream);
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket));
        socket.on('error', () => socket.destroy());
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((done) => this.server!.listen(this.port, '127.0.0.1', done));
  }

  async cut(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise((done) => this.server?.close(done));
  }
}

const describeOnPostgres = target === 'postgres' ? describe : describe.skip;

describeOnPostgres('database outage', () => {
  let proxy: CuttableProxy;
  let server: RunningServer;

  beforeAll(async () => {
    const url = new URL(testDatabaseUrl());
    const probe = createServer();
    await new Promise<void>((done) => probe.listen(0, '127.0.0.1', done));
    const port = (probe.address() as { port: number }).port;
    await new Promise((done) => probe.close(done));
    proxy = new CuttableProxy({ host: url.hostname, port: Number(url.port || 5432) }, port);
    await proxy.open();
    url.host = `127.0.0.1:${port}`;
    server = await startServer({ DATABASE_URL: url.toString() });
  });

  afterAll(async () => {
    await server?.stop();
    await proxy?.cut();
  });

  it('answers 503 within 2 s while the database is down, and recovers by itself', async () => {
    expect((await fetch(`${server.url}/v1/pets`, { headers: AUTH })).status).toBe(200);
    await proxy.cut();

    for (const [path, init] of [
      ['/v1/pets', {}],
      ['/v1/pets/1', {}],
      ['/v1/pets', { method: 'POST', body: '{"name":"Rex","categoryId":1}', headers: { ...AUTH, 'content-type': 'application/json' } }],
      ['/readyz', {}],
    ] as const) {
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
