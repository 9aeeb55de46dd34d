import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { finished } from 'node:stream';

/** Most bytes read to drain a refused body (drained, not closed on: docs/operations.md, "Time limits for slow clients"). */
export const UNREAD_BODY_MAX_BYTES = 4 * 1024 * 1024;

/** Longest a connection is held to drain a refused body. */
export const UNREAD_BODY_MAX_MS = 5_000;

const drainingAfterAnswer = new WeakSet<Socket>();

/** Whether this connection's request has been answered and its body is being drained: nothing more is to be written to it. */
export function isDrainingAfterAnswer(socket: Socket): boolean {
  return drainingAfterAnswer.has(socket);
}

/** Whether the body has yet to arrive in full (inject's requests do not say, and have nothing to drain). */
export function hasUnreadBody(request: IncomingMessage): boolean {
  return request.complete === false;
}

/** Whether Node will close the connection after the answer, as the client asked (RFC 9112 §9.3). */
export function closesAfterAnswer(request: IncomingMessage): boolean {
  const options = (request.headers.connection ?? '').toLowerCase().split(',');
  const named = (option: string) => options.some((value) => value.trim() === option);
  return request.httpVersion === '1.0' ? !named('keep-alive') : named('close');
}

/** Reads and discards the rest of a body within the bounds; true when it ended within them. */
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

/** Drains an answered request's body: the connection stays open if it ends within the bounds, else is destroyed. */
export function drainAfterAnswer(request: IncomingMessage): void {
  const { socket } = request;
  drainingAfterAnswer.add(socket);
  void drainUnreadBody(request).then((ended) => {
    drainingAfterAnswer.delete(socket);
    if (!ended) socket.destroy();
  });
}
