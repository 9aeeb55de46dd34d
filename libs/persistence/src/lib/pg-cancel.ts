import { Connection, type PoolClient } from 'pg';

// The one file that reads pg's internals, for the cancel pg lacks: docs/decisions/0006-database-access-public-api.md

/** What node-postgres's client knows of its server and backend: fields its own cancel uses, undocumented. */
interface BackendOf {
  readonly host: string;
  readonly port: number;
  readonly processID: number;
  readonly secretKey: number;
}

/** PostgreSQL's cancel request on a connection of its own (PgBouncer forwards it); best effort: the statement's answer tells. */
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
