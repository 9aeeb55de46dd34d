import { connect, createServer, type Server, type Socket } from 'node:net';

/**
 * A TCP proxy that delays every chunk by `delayMs` each way: a database that is a few network
 * hops away, as in most deployments, where each round trip of a start-up costs milliseconds.
 */
export class DelayingProxy {
  private server?: Server;
  private readonly sockets = new Set<Socket>();

  constructor(
    private readonly upstream: { host: string; port: number },
    private readonly delayMs: number,
  ) {}

  /** Listens on a free port of 127.0.0.1 and returns it. */
  async open(): Promise<number> {
    const server = createServer((client) => {
      const upstream = connect(this.upstream);
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket));
        socket.on('error', () => socket.destroy());
      }
      this.forward(client, upstream);
      this.forward(upstream, client);
    });
    this.server = server;
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    return (server.address() as { port: number }).port;
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    const server = this.server;
    if (server) await new Promise((done) => server.close(done));
  }

  /** Timers of equal delay fire in the order they were set, so the bytes keep their order. */
  private forward(from: Socket, to: Socket): void {
    from.on('data', (chunk) => setTimeout(() => to.destroyed || to.write(chunk), this.delayMs));
    from.on('end', () => setTimeout(() => to.destroyed || to.end(), this.delayMs));
    from.on('close', () => setTimeout(() => to.destroy(), this.delayMs));
  }
}
