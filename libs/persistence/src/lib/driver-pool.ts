import type { DataSource } from 'typeorm';

/** What the repositories need of the driver's pool: node-postgres's Pool, or typeorm-pglite's equivalent. */
export interface QueryablePool {
  query(config: { name: string; text: string; values: unknown[] } | string, values?: unknown[]): Promise<{ rows: unknown[] }>;
}

/** A driver module as TypeORM's `driver` option takes it: node-postgres, or typeorm-pglite's stand-in for it. */
interface DriverModule {
  readonly Pool: new (...args: never[]) => object;
}

/** The pool each driver module made by withPoolKept has made, by that module. */
const pools = new WeakMap<DriverModule, object>();

/**
 * `module` for TypeORM's `driver` option (a documented option, "defaults to require('pg')", made
 * for wrapping the driver: typeorm#5211), with a Pool that is kept when TypeORM makes it, so that
 * poolOf can hand it out. Everything else is the module's own.
 */
export function withPoolKept<Module extends DriverModule>(module: Module): Module {
  const driver = Object.create(module) as Module;
  const Pool = new Proxy(module.Pool, {
    construct(target, args, newTarget) {
      const pool = Reflect.construct(target, args, newTarget) as object;
      pools.set(driver, pool);
      return pool;
    },
  });
  return Object.defineProperty(driver, 'Pool', { value: Pool });
}

/**
 * The pool under an initialized DataSource whose driver withPoolKept made, for the statements
 * that bypass TypeORM (one round trip, no query building), through node-postgres's public API or
 * typeorm-pglite's. Checked at start: a TypeORM that stopped making its pool from the `driver`
 * option stops the service at once (and every e2e run, on both databases), not at its first request.
 */
export function poolOf(dataSource: DataSource): QueryablePool {
  const { driver } = dataSource.options as { driver?: DriverModule };
  const pool = driver && (pools.get(driver) as Partial<QueryablePool> | undefined);
  if (typeof pool?.query !== 'function') {
    throw new Error("No pool was made from the DataSource's `driver` option: give it withPoolKept(driver), and initialize it first");
  }
  return pool as QueryablePool;
}
