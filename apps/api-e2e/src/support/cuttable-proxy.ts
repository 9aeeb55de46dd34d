import { connect, createServer, type Server, type Socket } from 'node:net';

/**
 * A TCP proxy in front of PostgreSQL that a test can cut and restore, to play a database outage;
 * or whose replies it can drop, to play a network that fails after a request went through: the
 * database does the work, the service never hears of it.
 */
export class CuttableProxy {
  private server?: Server;
  private readonly sockets = new Set<Socket>();
  /** While true, what the database sends is dropped on the floor. */
  droppingReplies = false;

  constructor(
    private readonly upstream: { host: string; port: number },
    readonly port: number,
  ) {}

  /** A proxy on a free port of 127.0.0.1 in front of the database of `url`, listening; and the URL through it. */
  static async inFrontOf(url: string): Promise<{ proxy: CuttableProxy; url: string }> {
    const database = new URL(url);
    const probe = createServer();
    await new Promise<void>((done) => probe.listen(0, '127.0.0.1', done));
    const port = (probe.address() as { port: number }).port;
    await new Promise((done) => probe.close(done));
    const proxy = new CuttableProxy({ host: database.hostname, port: Number(database.port || 5432) }, port);
    await proxy.open();
    database.host = `127.0.0.1:${port}`;
    return { proxy, url: database.toString() };
  }

  async open(): Promise<void> {
    this.server = createServer((client) => {
      const upstream = connect(this.upstream);
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket));
        socket.on('error', () => socket.destroy());
      }
      client.pipe(upstream);
      upstream.on('data', (chunk) => this.droppingReplies || client.write(chunk));
      upstream.on('close', () => client.destroy());
      client.on('close', () => upstream.destroy());
    });
    await new Promise<void>((done) => this.server!.listen(this.port, '127.0.0.1', done));
  }

  async cut(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise((done) => this.server?.close(done));
  }
}
