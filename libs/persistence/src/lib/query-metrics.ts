import { Histogram } from 'prom-client';
import { STATEMENT_DEADLINES } from './data-source';

/** The longest the service waits for one statement: a connection, the answer, then a cancel's effect. */
const LONGEST_WAIT_SECONDS = (STATEMENT_DEADLINES.connectMs + STATEMENT_DEADLINES.answerMs + STATEMENT_DEADLINES.cancelGraceMs) / 1000;

/** Statement durations by name: the names are the code's (namedStatement), a bounded set whatever the requests. */
const queryDuration = new Histogram({
  name: 'petstore_db_query_duration_seconds',
  help: 'Time to run a statement, from asking the pool for a connection to its answer, by statement name',
  labelNames: ['statement'] as const,
  buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, LONGEST_WAIT_SECONDS],
});

type QueryDuration = ReturnType<typeof queryDuration.labels>;

const byStatement = new Map<string, QueryDuration>();

/** Binds a statement's series once, as it is defined, and shows it at zero until the statement runs. */
export function bindQueryDuration(statement: string): void {
  if (byStatement.has(statement)) return;
  queryDuration.zero({ statement });
  byStatement.set(statement, queryDuration.labels(statement));
}

/** Records how long a statement defined by namedStatement took. */
export function observeQueryDuration(statement: string, seconds: number): void {
  byStatement.get(statement)?.observe(seconds);
}
