import { connect, type Socket } from 'node:net';
import { describeOn, target } from './support/api';
import { AUTH, databaseEnv, type RunningServer, startServer } from './support/server';

// Slow and stalled clients, against a server with short time limits so that each bound is
// measured in a second or two; the README's configuration table states the defaults. The slow
// clients connect together, each on a connection of its own.
const HEADERS_TIMEOUT_MS = 1000;
const REQUEST_TIMEOUT_MS = 2000;
const KEEP_ALIVE_TIMEOUT_MS = 1000;
/** Node checks the header and request limits once a second. */
const CHECK_INTERVAL_MS = 1000;
const SLACK_MS = 1500;

interface Connection {
  readonly socket: Socket;
  /** Resolves, once the server has closed the connection, with what it sent and when it closed. */
  readonly closed: Promise<{ answer: string; afterMs: number }>;
}

async function open(server: RunningServer): Promise<Connection> {
  const { hostname, port } = new URL(server.url);
  const socket = connect(Number(port), hostname);
  await new Promise((done) => socket.once('connect', done));
  const opened = Date.now();
  let answer = '';
  socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
  socket.on('error', () => undefined);
  const closed = new Promise<{ answer: string; afterMs: number }>((done) =>
    socket.once('close', () => done({ answer, afterMs: Date.now() - opened })),
  );
  return { socket, closed };
}

/** Writes `bytes` one at a time, `everyMs` apart, until the connection closes. */
async function trickle(socket: Socket, bytes: string, everyMs: number): Promise<void> {
  for (const byte of bytes) {
    if (socket.destroyed) return;
    socket.write(byte);
    await new Promise((done) => setTimeout(done, everyMs));
  }
}

const statusOf = (answer: string) => Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1]);
const bodyOf = (answer: string) => JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as unknown;

/** The headers trickle in, slower than their limit. */
async function slowHeaders(server: RunningServer) {
  const { socket, closed } = await open(server);
  void trickle(socket, 'GET /v1/pets HTTP/1.1\r\nHost: x\r\nX-Slow: ' + 'a'.repeat(100), 100);
  return closed;
}

/** The headers of a create, then one byte of its body, then nothing. */
async function stalledBody(server: RunningServer) {
  const { socket, closed } = await open(server);
  socket.write(
    `POST /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: ${AUTH.authorization}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{`,
  );
  return closed;
}

/** The headers of a create, then its body a byte at a time, slower than the request limit allows. */
async function tricklingBody(server: RunningServer) {
  const { socket, closed } = await open(server);
  socket.write(
    `POST /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: ${AUTH.authorization}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n`,
  );
  void trickle(socket, `{"name":"${'x'.repeat(80)}","categoryId":1}`, 200);
  return closed;
}

/** The headers of an unauthenticated create, then its body a byte at a time: refused at once, then slower than the request limit allows. */
async function tricklingRefusedBody(server: RunningServer) {
  const { socket, closed } = await open(server);
  socket.write('POST /v1/pets HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n');
  void trickle(socket, ' '.repeat(100), 200);
  return closed;
}

/** One request, then the connection left open. */
async function idleKeepAlive(server: RunningServer) {
  const { socket, closed } = await open(server);
  socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
  return closed;
}

describeOn('pglite')('slow clients', () => {
  let server: RunningServer;
  /** The slow clients, all at once from the start (each waits on a limit); each test reads its own. */
  let clients: Record<
    'slowHeaders' | 'stalledBody' | 'tricklingBody' | 'tricklingRefusedBody' | 'idleKeepAlive',
    Promise<Awaited<Connection['closed']>>
  >;

  beforeAll(async () => {
    server = await startServer({
      ...databaseEnv(target),
      HTTP_HEADERS_TIMEOUT_MS: String(HEADERS_TIMEOUT_MS),
      HTTP_REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS),
      HTTP_KEEP_ALIVE_TIMEOUT_MS: String(KEEP_ALIVE_TIMEOUT_MS),
    });
    clients = {
      slowHeaders: slowHeaders(server),
      stalledBody: stalledBody(server),
      tricklingBody: tricklingBody(server),
      tricklingRefusedBody: tricklingRefusedBody(server),
      idleKeepAlive: idleKeepAlive(server),
    };
  });

  afterAll(async () => {
    await server.stop();
  });

  it('closes a connection whose headers do not arrive in time, with 408 and the Error body', async () => {
    const { answer, afterMs } = await clients.slowHeaders;
    expect(afterMs).toBeLessThan(HEADERS_TIMEOUT_MS + CHECK_INTERVAL_MS + SLACK_MS);
    expect(statusOf(answer)).toBe(408);
    expect(bodyOf(answer)).toEqual({ code: 'REQUEST_TIMEOUT', message: expect.any(String), status: 408 });
  });

  it('closes a connection whose body stalls, with 408 and the Error body', async () => {
    const { answer, afterMs } = await clients.stalledBody;
    expect(afterMs).toBeLessThan(REQUEST_TIMEOUT_MS + CHECK_INTERVAL_MS + SLACK_MS);
    expect(statusOf(answer)).toBe(408);
    expect(bodyOf(answer)).toEqual({ code: 'REQUEST_TIMEOUT', message: expect.any(String), status: 408 });
  });

  it('closes a connection whose body trickles in a byte at a time, within the request limit', async () => {
    const { answer, afterMs } = await clients.tricklingBody;
    expect(afterMs).toBeLessThan(REQUEST_TIMEOUT_MS + CHECK_INTERVAL_MS + SLACK_MS);
    expect(statusOf(answer)).toBe(408);
  });

  it('closes a connection whose refused body trickles in, within the request limit, with no answer after the refusal', async () => {
    const { answer, afterMs } = await clients.tricklingRefusedBody;
    expect(afterMs).toBeLessThan(REQUEST_TIMEOUT_MS + CHECK_INTERVAL_MS + SLACK_MS);
    expect(statusOf(answer)).toBe(401);
    expect(answer.match(/HTTP\/1\.1 \d{3}/g)).toEqual(['HTTP/1.1 401']);
  });

  it('closes an idle keep-alive connection after its limit', async () => {
    const { answer, afterMs } = await clients.idleKeepAlive;
    expect(statusOf(answer)).toBe(200);
    expect(afterMs).toBeGreaterThanOrEqual(KEEP_ALIVE_TIMEOUT_MS - 100);
    expect(afterMs).toBeLessThan(KEEP_ALIVE_TIMEOUT_MS + SLACK_MS);
  });

  it('hangs up on an oversized unauthenticated upload soon, having read little of it', async () => {
    const { socket, closed } = await open(server);
    socket.write('POST /v1/pets HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1073741824\r\n\r\n');
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    let sent = 0;
    while (!socket.destroyed && sent < 256 * 1024 * 1024) {
      // Yield every time, so that the close can arrive.
      const drained = socket.write(chunk);
      sent += chunk.length;
      await new Promise((done) => setTimeout(done, drained ? 0 : 5));
    }
    const { answer, afterMs } = await closed;
    expect(statusOf(answer)).toBe(401);
    expect(afterMs).toBeLessThan(2000);
    expect(sent).toBeLessThan(64 * 1024 * 1024);
  });

  it('still serves normal requests afterwards', async () => {
    expect((await fetch(`${server.url}/v1/pets`, { headers: AUTH })).status).toBe(200);
  });
});
