import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { finished } from 'node:stream';

// A request refused before its body was read (401, 413, 415…) leaves the client sending that body.
// Closing on unread bytes makes the kernel send a reset, which can reach the client before it has
// read the answer: the body is read and discarded instead, within these bounds (RFC 9112 §9.6).

/** Most bytes read from the connection to drain a refused body: a client's upload of a few MB still gets its answer, a flood is cut short. */
export const UNREAD_BODY_MAX_BYTES = 4 * 1024 * 1024;

/** Longest a connection is held to drain a refused body: nginx's lingering_timeout, which a stalled client does not outlast. */
export const UNREAD_BODY_MAX_MS = 5_000;

/** Connections whose request has been answered while its body is still being drained. */
const drainingAfterAnswer = new WeakSet<Socket>();

/** Whether this connection's request has been answered and its body is being drained: nothing more is to be written to it. */
export function isDrainingAfterAnswer(socket: Socket): boolean {
  return drainingAfterAnswer.has(socket);
}

/**
 * Whether the body of a request has yet to arrive in full. Requests made by inject (light-my-request)
 * do not say, and have nothing to drain.
 */
export function hasUnreadBody(request: IncomingMessage): boolean {
  return request.complete === false;
}

/** Whether Node will close the connection after the answer, as the client asked (RFC 9112 §9.3). */
export function closesAfterAnswer(request: IncomingMessage): boolean {
  const options = (request.headers.connection ?? '').toLowerCase().split(',');
  const named = (option: string) => options.some((value) => value.trim() === option);
  return request.httpVersion === '1.0' ? !named('keep-alive') : named('close');
}

/**
 * Reads and discards what is left of a request's body, within the bounds above. Resolves true
 * when the body ended within them, false when a bound was passed or the connection closed first.
 */
export function drainUnreadBody(request: IncomingMessage): Promise<boolean> {
  const { socket } = request;
  const bytesAtStart = socket.bytesRead;
  return new Promise((resolve) => {
    const settle = (ended: boolean) => {
      clearTimeout(timer);
      request.off('data', checkBytes);
      stopWatching();
      resolve(ended);
    };
    // Bytes off the wire, framing included: a body chunked a byte at a time costs what it weighs.
    const checkBytes = () => {
      if (socket.bytesRead - bytesAtStart > UNREAD_BODY_MAX_BYTES) settle(false);
    };
    const timer = setTimeout(() => settle(false), UNREAD_BODY_MAX_MS).unref();
    const stopWatching = finished(request, (error) => settle(!error));
    request.on('data', checkBytes);
    request.resume();
  });
}

/**
 * Drains the body of a request that has been answered (or is being answered): the connection
 * stays open for the next request when the body ends within the bounds, and is destroyed past them.
 */
export function drainAfterAnswer(request: IncomingMessage): void {
  const { socket } = request;
  drainingAfterAnswer.add(socket);
  void drainUnreadBody(request).then((ended) => {
    drainingAfterAnswer.delete(socket);
    if (!ended) socket.destroy();
  });
}
