import { type Pool, type PoolClient, Query, types } from 'pg';
import type { NamedQuery, QueryablePool } from './driver-pool';
import { isLinkFailure, StatementOutcomeUnknownError } from './database-errors';
import { dropConnection, sendCancelRequest } from './pg-cancel';

const INT8_OID = 20;

/** pg's types with int8 straight to bigint, as PGlite gives it: pg's default string was parsed again by toPet (docs/performance.md). */
export const EXACT_INT8 = {
  getTypeParser: (oid: number, format?: 'text' | 'binary') =>
    oid === INT8_OID ? BigInt : (types.getTypeParser(oid, format) as (value: string) => unknown),
};

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

/** How often deadlines are checked (each holds to within it): one timer for all statements is far cheaper (docs/performance.md). */
export const DEADLINE_CHECK_MS = 50;

interface Running {
  readonly client: PoolClient;
  readonly sentAt: number;
  cancelledAt?: number;
  /** Its connection was dropped: no answer came, nor one to the cancel. */
  abandoned?: true;
}

// A connection lost while checked out emits 'error' on the client (the pool listens only while idle): unheard, it crashes the process.
const ignoreLostConnection = () => undefined;

/** Runs statements on pg's pool so that one the service stops waiting for is over on the server before anyone is answered. */
export class PgStatementRunner implements QueryablePool {
  private readonly running = new Set<Running>();
  private readonly deadlineCheck: NodeJS.Timeout;

  constructor(
    private readonly pool: Pool,
    private readonly deadlines: StatementDeadlines,
  ) {
    this.deadlineCheck = setInterval(() => this.enforceDeadlines(), DEADLINE_CHECK_MS).unref();
  }

  // Callbacks under one promise: a promise and an await per step cost a request measurably (docs/performance.md).
  query(config: NamedQuery | string, values: unknown[]): Promise<{ rows: unknown[] }> {
    return new Promise((resolve, reject) => {
      this.pool.connect((connectError, client, release) => {
        // A failure here is before the statement was sent: it was not run. pg hands a client or else an error.
        if (connectError || !client) return reject(connectError!);
        client.on('error', ignoreLostConnection);
        const statement: Running = { client, sentAt: performance.now() };
        this.running.add(statement);
        const answered = (error: Error | null | undefined, result: { rows: unknown[] }) => {
          this.running.delete(statement);
          client.off('error', ignoreLostConnection);
          if (!error) {
            release();
            return resolve(result);
          }
          // No server answer after sending: the outcome is unknown, and the connection is dropped, never pooled with a busy backend.
          const outcomeUnknown = statement.abandoned === true || isLinkFailure(error);
          release(outcomeUnknown);
          if (!outcomeUnknown) return reject(error);
          const cause = statement.abandoned ? new Error(this.abandonedMessage()) : error;
          reject(new StatementOutcomeUnknownError({ cause }));
        };
        // A named statement's config inherits its name and text: pg 8.23 copies a config's own properties on every query, slowly
        // (until brianc/node-postgres#3743), and only reads inherited ones.
        if (typeof config === 'string') client.query(config, values, answered);
        else client.query(new Query(Object.create(config) as NamedQuery, values, answered));
      });
    });
  }

  /** Stops checking deadlines; statements still running keep theirs no longer. */
  close(): void {
    clearInterval(this.deadlineCheck);
  }

  /** Past the answer's deadline, a cancel; past the cancel's, the connection is dropped, which fails the statement. */
  private enforceDeadlines(): void {
    const now = performance.now();
    for (const statement of this.running) {
      if (statement.cancelledAt === undefined) {
        if (now - statement.sentAt < this.deadlines.answerMs) continue;
        statement.cancelledAt = now;
        sendCancelRequest(statement.client);
      } else if (!statement.abandoned && now - statement.cancelledAt >= this.deadlines.cancelGraceMs) {
        statement.abandoned = true;
        dropConnection(statement.client);
      }
    }
  }

  private abandonedMessage(): string {
    return `No answer within ${this.deadlines.answerMs} ms, nor to a cancel within ${this.deadlines.cancelGraceMs} ms`;
  }
}
