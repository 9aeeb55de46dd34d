import { connect, createServer, type Server, type Socket } from 'node:net';

/**
 * A TCP load balancer in front of several instances: each new connection goes to the next
 * instance in turn, and its bytes are relayed untouched both ways (layer 4, as a cloud network
 * load balancer): raw and malformed requests reach an instance as they were sent. Half-closes are
 * relayed (a client that ends its side still gets the answer), and so are resets. Unlike a balancer
 * that forwards packets, it can lose an answer when the instance closes while the client is still
 * uploading: the relay's next write fails, and Node drops the socket before reading the answer.
 */
export class RoundRobinProxy {
  private readonly sockets = new Set<Socket>();
  private next = 0;
  /** Connections handed to each instance so far, in the order of `upstreams`. */
  readonly connections: number[];

  private constructor(
    private readonly server: Server,
    private readonly upstreams: ReadonlyArray<{ host: string; port: number }>,
    readonly url: string,
  ) {
    this.connections = upstreams.map(() => 0);
  }

  /** Listens on a free port of 127.0.0.1 in front of these base URLs (http://host:port). */
  static async inFrontOf(urls: readonly string[]): Promise<RoundRobinProxy> {
    const upstreams = urls.map((url) => ({ host: new URL(url).hostname, port: Number(new URL(url).port) }));
    const server = createServer({ allowHalfOpen: true });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    const proxy = new RoundRobinProxy(server, upstreams, `http://127.0.0.1:${(server.address() as { port: number }).port}`);
    server.on('connection', (client) => proxy.relay(client));
    return proxy;
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise((done) => this.server.close(done));
  }

  private relay(client: Socket): void {
    const index = this.next;
    this.next = (this.next + 1) % this.upstreams.length;
    this.connections[index] += 1;
    const upstream = connect({ ...this.upstreams[index], allowHalfOpen: true });
    for (const [socket, other] of [
      [client, upstream],
      [upstream, client],
    ]) {
      this.sockets.add(socket);
      socket.setNoDelay(true);
      // pipe() relays the data and the end of each direction; a reset on one side resets the other.
      socket.pipe(other);
      socket.on('error', () => other.resetAndDestroy());
      socket.on('close', () => {
        this.sockets.delete(socket);
        // After an orderly end, what was relayed to the other side is flushed before it goes.
        if (other.writableEnded && !other.writableFinished) other.once('finish', () => other.destroy());
        else other.destroy();
      });
    }
  }
}
