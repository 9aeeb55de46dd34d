import { Injectable } from '@nestjs/common';
import { BoundHistogram } from '@petstore/observability/histogram';
import { Gauge, Registry } from 'prom-client';
import { STATEMENT_DEADLINES } from './data-source';

/** What node-postgres's Pool reports of its connections. */
export interface PoolStats {
  readonly options: { readonly max: number };
  readonly totalCount: number;
  readonly idleCount: number;
  readonly waitingCount: number;
}

/** The longest the service waits for one statement: a connection, the answer, then a cancel's effect. */
const LONGEST_WAIT_SECONDS = (STATEMENT_DEADLINES.connectMs + STATEMENT_DEADLINES.answerMs + STATEMENT_DEADLINES.cancelGraceMs) / 1000;

/** Pool gauges read at scrape time (nothing on the request path), and durations by the code's statement names (a bounded set). */
@Injectable()
export class DatabaseMetrics {
  private readonly pools = new Set<PoolStats>();
  private readonly queryDuration: BoundHistogram;

  constructor(registry: Registry) {
    // Summed over the pools in use, read at each scrape.
    const sum = (count: (pool: PoolStats) => number) => [...this.pools].reduce((total, pool) => total + count(pool), 0);
    new Gauge({
      name: 'petstore_db_pool_connections',
      help: 'Database connections held by the pool, by state (in_use, idle)',
      labelNames: ['state'] as const,
      registers: [registry],
      collect() {
        const idle = sum((pool) => pool.idleCount);
        this.set({ state: 'in_use' }, sum((pool) => pool.totalCount) - idle);
        this.set({ state: 'idle' }, idle);
      },
    });
    new Gauge({
      name: 'petstore_db_pool_max_connections',
      help: 'Database connections the pool may hold at most, whatever the database does',
      registers: [registry],
      collect() {
        this.set(sum((pool) => pool.options.max));
      },
    });
    new Gauge({
      name: 'petstore_db_pool_waiting_requests',
      help: 'Queries waiting for a database connection from the pool',
      registers: [registry],
      collect() {
        this.set(sum((pool) => pool.waitingCount));
      },
    });
    this.queryDuration = new BoundHistogram(
      registry,
      'petstore_db_query_duration_seconds',
      'Time to run a statement, from asking the pool for a connection to its answer, by statement name',
      [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, LONGEST_WAIT_SECONDS],
    );
  }

  /** Reports a pool in the gauges until the returned function is called. Only PostgreSQL has one; PGlite has a single session. */
  reportPool(pool: unknown): () => void {
    if (!isPoolStats(pool)) return () => undefined;
    this.pools.add(pool);
    return () => this.pools.delete(pool);
  }

  /** Records how long a declared statement took, in its series (shown at zero until it runs); a statement never declared has none. */
  queryDurationOf(statement: string): (seconds: number) => void {
    return this.queryDuration.bind({ statement }, true);
  }
}

function isPoolStats(pool: unknown): pool is PoolStats {
  return typeof (pool as Partial<PoolStats> | undefined)?.totalCount === 'number';
}
