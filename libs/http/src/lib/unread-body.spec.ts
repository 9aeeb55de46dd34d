import { createServer, type IncomingMessage, type Server } from 'node:http';
import { connect } from 'node:net';
import { closesAfterAnswer, drainUnreadBody, UNREAD_BODY_MAX_BYTES } from './protocol-errors';

// The drain on Node's own server, the request left unread until it starts. What a client of the
// service sees (its answer, the connection kept or closed, the time bound): apps/api-e2e/src/refused-uploads.e2e-spec.ts.

/** A server whose every request is drained; resolves with the outcome of the first. */
async function drainedBy(send: (write: (bytes: string | Buffer) => boolean, hangUp: () => void) => void): Promise<boolean> {
  let server: Server | undefined;
  const drained = new Promise<boolean>((resolve) => {
    server = createServer((request) => void drainUnreadBody(request).then(resolve));
  });
  await new Promise<void>((done) => server?.listen(0, '127.0.0.1', done));
  const socket = connect((server?.address() as { port: number }).port, '127.0.0.1');
  socket.on('error', () => undefined);
  socket.once('connect', () =>
    send(
      (bytes) => socket.write(bytes),
      () => socket.destroy(),
    ),
  );
  try {
    return await drained;
  } finally {
    socket.destroy();
    server?.closeAllConnections();
    await new Promise((done) => server?.close(done));
  }
}

const head = (contentLength: number) => `POST / HTTP/1.1\r\nHost: x\r\nContent-Length: ${contentLength}\r\n\r\n`;

describe('drainUnreadBody', () => {
  it('reads a body to its end, within the bounds', async () => {
    expect(await drainedBy((write) => write(head(1024 * 1024) + ' '.repeat(1024 * 1024)))).toBe(true);
  });

  it('gives up on a body past the byte bound', async () => {
    const bytes = UNREAD_BODY_MAX_BYTES * 2;
    expect(await drainedBy((write) => write(Buffer.concat([Buffer.from(head(bytes)), Buffer.alloc(bytes, 0x20)])))).toBe(false);
  });

  it('gives up on a body whose client goes away', async () => {
    expect(
      await drainedBy((write, hangUp) => {
        write(head(1024) + ' ');
        setTimeout(hangUp, 50);
      }),
    ).toBe(false);
  });
});

describe('closesAfterAnswer', () => {
  const request = (httpVersion: string, connection?: string) => ({ httpVersion, headers: { connection } }) as IncomingMessage;

  it.each([
    ['HTTP/1.1', '1.1', undefined, false],
    ['HTTP/1.1, Connection: close', '1.1', 'close', true],
    ['HTTP/1.1, Connection: Keep-Alive, Close', '1.1', 'Keep-Alive, Close', true],
    ['HTTP/1.1, Connection: x-closed', '1.1', 'x-closed', false],
    ['HTTP/1.0', '1.0', undefined, true],
    ['HTTP/1.0, Connection: keep-alive', '1.0', 'keep-alive', false],
  ])('for %s: %s', (_case, httpVersion, connection, closes) => {
    expect(closesAfterAnswer(request(httpVersion, connection))).toBe(closes);
  });
});
