import { Gauge } from 'prom-client';

/** What node-postgres's Pool reports of its connections. */
export interface PoolStats {
  readonly options: { readonly max: number };
  readonly totalCount: number;
  readonly idleCount: number;
  readonly waitingCount: number;
}

const pools = new Set<PoolStats>();

// Read at scrape time from the pools in use: nothing is counted on the request path.
new Gauge({
  name: 'petstore_db_pool_connections',
  help: 'Database connections held by the pool, by state (in_use, idle)',
  labelNames: ['state'] as const,
  collect() {
    let idle = 0;
    let total = 0;
    for (const pool of pools) {
      idle += pool.idleCount;
      total += pool.totalCount;
    }
    this.set({ state: 'in_use' }, total - idle);
    this.set({ state: 'idle' }, idle);
  },
});

new Gauge({
  name: 'petstore_db_pool_max_connections',
  help: 'Database connections the pool may hold at most, whatever the database does',
  collect() {
    this.set([...pools].reduce((max, pool) => max + pool.options.max, 0));
  },
});

new Gauge({
  name: 'petstore_db_pool_waiting_requests',
  help: 'Queries waiting for a database connection from the pool',
  collect() {
    this.set([...pools].reduce((waiting, pool) => waiting + pool.waitingCount, 0));
  },
});

/** Reports a pool in the gauges until the returned function is called. Only PostgreSQL has one; PGlite has a single session. */
export function reportPool(pool: unknown): () => void {
  if (!isPoolStats(pool)) return () => undefined;
  pools.add(pool);
  return () => pools.delete(pool);
}

function isPoolStats(pool: unknown): pool is PoolStats {
  return typeof (pool as Partial<PoolStats> | undefined)?.totalCount === 'number';
}
