import { Connection, type PoolClient } from 'pg';

/*
 * The cancel path's adapter: node-postgres has no public way to cancel a running statement
 * (brianc/node-postgres#1954), so this file, and no other, reads its client's internals: the
 * backend's key (processID, secretKey), its Connection class and the client's socket
 * (connection.stream). eslint.config.mjs refuses them anywhere else; pg-statement-runner.spec.ts
 * runs both functions against a stand-in server and fails when a pg release moves them.
 */

/** What node-postgres's client knows of its server and backend: fields its own cancel uses, undocumented. */
interface BackendOf {
  readonly host: string;
  readonly port: number;
  readonly processID: number;
  readonly secretKey: number;
}

/**
 * PostgreSQL's cancel request, on a connection of its own (the protocol's way, which PgBouncer
 * forwards to the right server). Best effort: whether it worked shows in the statement's answer.
 */
export function sendCancelRequest(client: PoolClient): void {
  const { host, port, processID, secretKey } = client as unknown as BackendOf;
  const connection = new Connection() as Connection & {
    connect(port: number | string, host?: string): void;
    cancel(processID: number, secretKey: number): void;
  };
  connection.on('error', () => undefined);
  connection.on('connect', () => connection.cancel(processID, secretKey));
  if (host.startsWith('/')) connection.connect(`${host}/.s.PGSQL.${port}`);
  else connection.connect(port, host);
}

/** Closes the client's socket at once: node-postgres then fails the statement it was waiting on. */
export function dropConnection(client: PoolClient): void {
  (client as unknown as { connection: { stream: { destroy(): void } } }).connection.stream.destroy();
}
