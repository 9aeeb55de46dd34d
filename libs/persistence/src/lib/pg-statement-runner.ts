import { Connection, type Pool, type PoolClient } from 'pg';
import type { QueryablePool } from './data-source';
import { isLinkFailure, StatementOutcomeUnknownError } from './database-errors';

/** How long the service waits on PostgreSQL for one statement, in milliseconds. */
export interface StatementDeadlines {
  /** For a connection from the pool (a new one included). The statement has not been sent. */
  readonly connectMs: number;
  /** statement_timeout and lock_timeout on the server: it stops the statement and says so. */
  readonly serverMs: number;
  /** For the answer, on the client: then the service asks the server to cancel the statement. */
  readonly answerMs: number;
  /** For the cancel to take effect: then the connection is dropped and the outcome is unknown. */
  readonly cancelGraceMs: number;
}

const TIMED_OUT = Symbol('timed out');

/**
 * Runs statements on node-postgres's pool so that a statement the service stops waiting for is
 * stopped on the server too, before anyone is answered: PostgreSQL's own statement_timeout ends
 * it first; if the server is silent past the client's deadline (a pooler that drops the setting, a
 * stalled network) the service sends a cancel request and waits for its effect. Every failure after
 * the statement was sent that leaves no server answer is a StatementOutcomeUnknownError, and its
 * connection is dropped, so the pool never holds a backend still working on an abandoned statement.
 */
export class PgStatementRunner implements QueryablePool {
  constructor(
    private readonly pool: Pool,
    private readonly deadlines: StatementDeadlines,
  ) {}

  async query(config: Parameters<QueryablePool['query']>[0], values?: unknown[]): Promise<{ rows: unknown[] }> {
    // A failure here is before the statement was sent: it was not run.
    const client = await this.pool.connect();
    // A connection lost while checked out emits 'error' on the client (the pool listens only while
    // it is idle): without a listener the process would crash. The statement's own promise rejects.
    const ignoreLostConnection = () => undefined;
    client.on('error', ignoreLostConnection);
    let broken = false;
    try {
      return await this.answerOf(client, client.query(config, values));
    } catch (error) {
      broken = error instanceof StatementOutcomeUnknownError || isLinkFailure(error);
      throw isLinkFailure(error) ? new StatementOutcomeUnknownError({ cause: error }) : error;
    } finally {
      client.off('error', ignoreLostConnection);
      client.release(broken);
    }
  }

  /** The statement's answer; past the deadline, the answer to a cancel (PostgreSQL's 57014) or to nothing. */
  private async answerOf<T>(client: PoolClient, answer: Promise<T>): Promise<T> {
    const first = await within(answer, this.deadlines.answerMs);
    if (first !== TIMED_OUT) return first;
    sendCancelRequest(client);
    const second = await within(answer, this.deadlines.cancelGraceMs);
    if (second !== TIMED_OUT) return second;
    // Dropping the connection rejects the answer later: nobody is waiting for it any more.
    answer.catch(() => undefined);
    throw new StatementOutcomeUnknownError({ cause: new Error(`No answer within ${this.deadlines.answerMs} ms, nor to a cancel`) });
  }
}

function within<T>(promise: Promise<T>, ms: number): Promise<T | typeof TIMED_OUT> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<typeof TIMED_OUT>((resolve) => (timer = setTimeout(resolve, ms, TIMED_OUT)));
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** What node-postgres's client knows of its server and backend, public fields its own cancel uses. */
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
function sendCancelRequest(client: PoolClient): void {
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
