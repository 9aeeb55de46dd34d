import type { Server, ServerResponse } from 'node:http';

/**
 * The service's drain after SIGTERM (docs/operations.md, "Shutdown and draining"): it still serves, but /readyz answers 503
 * so that a load balancer takes it out of rotation, and every answer closes its connection so that kept-alive clients go elsewhere.
 */
export class Drain {
  private started = false;

  get draining(): boolean {
    return this.started;
  }

  /** Starts the drain; a listener of the server's own, ahead of Fastify's, so that no request pays for it before. */
  start(server: Server): void {
    this.started = true;
    server.prependListener('request', (_request, response: ServerResponse) => response.setHeader('connection', 'close'));
  }
}
