import { connect, type Socket } from 'node:net';
import { describeOn, instanceUrls } from './support/api';
import { AUTH } from './support/server';

// Requests the service refuses before reading their body (401, 413, 415), from clients that write
// the whole request before they read, as many HTTP clients do. The answer goes out at once and the
// service drains the body, within bounds, instead of closing on unread bytes: such a close is a
// reset, which can reach the client before it has read the answer.

/** The service's bounds on draining a refused body (libs/http/src/lib/protocol-errors.ts). */
const DRAIN_MAX_BYTES = 4 * 1024 * 1024;
const DRAIN_MAX_MS = 5000;
const SLACK_MS = 1500;
const TRIES = 10;
const UPLOAD_BYTES = 1024 * 1024;
const PIECE_BYTES = 64 * 1024;
/** What the two kernels' socket buffers can hold on loopback when the service hangs up: bytes a client counts as sent that nothing read. */
const KERNEL_BUFFERS_BYTES = 16 * 1024 * 1024;
/** How long a client waits to finish sending, or to read its answer, before it gives up. */
const PATIENCE_MS = 10_000;

/**
 * A connection straight to an instance (a relay that copies bytes may lose an answer the instance
 * sent while it was still uploading), not read from until the client says so.
 */
async function openUnread(): Promise<Socket> {
  const { hostname, port } = new URL(instanceUrls()[0]);
  const socket = connect(Number(port), hostname);
  // Paused before it connects, Node reads nothing: the answer waits in the kernel, as for a client busy writing.
  socket.pause();
  socket.on('error', () => undefined);
  await new Promise((done) => socket.once('connect', done));
  return socket;
}

/** Writes bytes and resolves once they are handed to the kernel: true, or false if the connection failed or stalled first. */
function send(socket: Socket, bytes: string | Buffer): Promise<boolean> {
  return new Promise((done) => {
    const timer = setTimeout(() => done(false), PATIENCE_MS);
    socket.write(bytes, (error) => {
      clearTimeout(timer);
      done(!error);
    });
  });
}

/**
 * Reads the next answer on the connection (a head, and the body its Content-Length gives), or what
 * came before it closed or before the client's patience ran out.
 */
function nextAnswer(socket: Socket): Promise<string> {
  if (socket.destroyed) return Promise.resolve('');
  return new Promise((done) => {
    let received = '';
    const finish = () => {
      clearTimeout(timer);
      socket.off('data', onData);
      socket.off('close', finish);
      socket.pause();
      done(received);
    };
    const onData = (chunk: Buffer) => {
      received += chunk.toString('latin1');
      const headEnd = received.indexOf('\r\n\r\n');
      const length = Number(/\r\ncontent-length: *(\d+)/i.exec(received.slice(0, headEnd))?.[1] ?? 0);
      if (headEnd >= 0 && received.length >= headEnd + 4 + length) finish();
    };
    const timer = setTimeout(finish, PATIENCE_MS);
    socket.on('data', onData);
    socket.once('close', finish);
    socket.resume();
  });
}

/**
 * What a client that writes its whole request before reading finds: the answer's status, or why it
 * has none. It streams the body in pieces, as from a file or a generator, with a pause between them.
 */
async function sendThenRead(head: string, body: Buffer): Promise<number | string> {
  const socket = await openUnread();
  let failure = 'no answer';
  socket.once('error', (error: NodeJS.ErrnoException) => (failure = error.code ?? error.message));
  let sent = await send(socket, head);
  for (let offset = 0; sent && offset < body.length; offset += PIECE_BYTES) {
    sent = await send(socket, body.subarray(offset, offset + PIECE_BYTES));
    await new Promise((done) => setTimeout(done, 1));
  }
  const answer = await nextAnswer(socket);
  socket.destroy();
  return statusOf(answer) ?? failure;
}

const statusOf = (answer: string) => {
  const status = /^HTTP\/1\.1 (\d{3}) /.exec(answer)?.[1];
  return status === undefined ? undefined : Number(status);
};

const headerOf = (answer: string, name: string) =>
  new RegExp(`\r\n${name}: *([^\r]*)\r\n`, 'i').exec(answer.slice(0, answer.indexOf('\r\n\r\n') + 2))?.[1];

const createPet = (headers: string) => `POST /v1/pets HTTP/1.1\r\nHost: x\r\n${headers}\r\n`;
const withLength = (bytes: number) => `Content-Length: ${bytes}\r\n`;
const JSON_TYPE = 'Content-Type: application/json\r\n';
const AUTHORIZATION = `Authorization: ${AUTH.authorization}\r\n`;

/** A body of `bytes` in chunked framing, a chunk per piece. */
function chunked(bytes: number): Buffer {
  const chunk = Buffer.alloc(PIECE_BYTES, 0x20);
  const framed = Array.from({ length: bytes / chunk.length }, () => [
    Buffer.from(`${chunk.length.toString(16)}\r\n`),
    chunk,
    Buffer.from('\r\n'),
  ]);
  return Buffer.concat([...framed.flat(), Buffer.from('0\r\n\r\n')]);
}

/**
 * An unauthenticated create that sends its headers and a piece of its body, then nothing: its
 * answer's status, when the answer came, and when the service hung up.
 */
async function stalledRefusal(headers: string) {
  const socket = await openUnread();
  const opened = Date.now();
  const closed = new Promise<number>((done) => socket.once('close', () => done(Date.now() - opened)));
  await send(socket, createPet(JSON_TYPE + headers + withLength(UPLOAD_BYTES)) + ' '.repeat(1024));
  const answer = await nextAnswer(socket);
  const answeredAfterMs = Date.now() - opened;
  socket.resume();
  return { status: statusOf(answer), answeredAfterMs, closedAfterMs: await closed };
}

const upload = Buffer.alloc(UPLOAD_BYTES, 0x20);

describeOn('pglite')('refused uploads', () => {
  it.each([
    ['401 to an unauthenticated upload', createPet(JSON_TYPE + withLength(UPLOAD_BYTES)), upload, 401],
    ['413 to a Content-Length over the limit', createPet(AUTHORIZATION + JSON_TYPE + withLength(UPLOAD_BYTES)), upload, 413],
    [
      '413 to a chunked body that crosses the limit',
      createPet(AUTHORIZATION + JSON_TYPE + 'Transfer-Encoding: chunked\r\n'),
      chunked(UPLOAD_BYTES),
      413,
    ],
    ['415 to a body that is not JSON', createPet(AUTHORIZATION + 'Content-Type: text/plain\r\n' + withLength(UPLOAD_BYTES)), upload, 415],
    ['401 to a client that asks to close', createPet(JSON_TYPE + 'Connection: close\r\n' + withLength(UPLOAD_BYTES)), upload, 401],
  ])('answers %s of 1 MiB, sent whole before the client reads, every time', async (_case, head, body, status) => {
    const outcomes: Array<number | string> = [];
    for (let attempt = 0; attempt < TRIES; attempt++) outcomes.push(await sendThenRead(head, body));
    expect(outcomes).toEqual(Array(TRIES).fill(status));
  });

  it.each([
    ['401', createPet(JSON_TYPE + withLength(UPLOAD_BYTES)), upload, 401],
    ['413', createPet(AUTHORIZATION + JSON_TYPE + 'Transfer-Encoding: chunked\r\n'), chunked(UPLOAD_BYTES), 413],
  ])('keeps the connection for the next request once the body refused with %s is drained', async (_status, head, body, status) => {
    const socket = await openUnread();
    await send(socket, Buffer.concat([Buffer.from(head), body]));
    const refusal = await nextAnswer(socket);
    expect(statusOf(refusal)).toBe(status);
    expect(headerOf(refusal, 'connection')).not.toBe('close');
    await send(socket, 'GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
    expect(statusOf(await nextAnswer(socket))).toBe(200);
    socket.destroy();
  });

  it('hangs up on a refused body that goes on past the drain bound, having taken little more than the bound', async () => {
    const socket = await openUnread();
    await send(socket, createPet(JSON_TYPE + withLength(200 * 1024 * 1024)));
    // A client with 200 MiB to send, which reads nothing until it has sent them.
    const chunk = Buffer.alloc(PIECE_BYTES, 0x20);
    let accepted = 0;
    while ((await send(socket, chunk)) && accepted < 200 * 1024 * 1024) accepted += chunk.length;
    socket.destroy();
    // What the client got rid of: what the service drained, and what the kernels held when it hung up.
    expect(accepted).toBeGreaterThan(DRAIN_MAX_BYTES);
    expect(accepted).toBeLessThan(DRAIN_MAX_BYTES + KERNEL_BUFFERS_BYTES);
  });

  it('hangs up on a refused body that stalls once the drain time is up: answered at once, or then when the client asked to close', async () => {
    const [keepingAlive, closing] = await Promise.all([stalledRefusal(''), stalledRefusal('Connection: close\r\n')]);
    expect(keepingAlive.status).toBe(401);
    expect(keepingAlive.answeredAfterMs).toBeLessThan(SLACK_MS);
    expect(closing.status).toBe(401);
    expect(closing.answeredAfterMs).toBeGreaterThanOrEqual(DRAIN_MAX_MS - 100);
    for (const { closedAfterMs } of [keepingAlive, closing]) {
      expect(closedAfterMs).toBeGreaterThanOrEqual(DRAIN_MAX_MS - 100);
      expect(closedAfterMs).toBeLessThan(DRAIN_MAX_MS + SLACK_MS);
    }
  });
});
