import type { DataSource } from 'typeorm';

/** What the repositories need of the driver's pool: node-postgres's Pool, or PGlitePool. */
export interface QueryablePool {
  query(config: { name: string; text: string; values: unknown[] } | string, values?: unknown[]): Promise<{ rows: unknown[] }>;
}

/** A driver module as TypeORM's `driver` option takes it: node-postgres, or pgliteDriver's stand-in for it. */
interface DriverModule {
  readonly Pool: new (...args: never[]) => object;
}

const pools = new WeakMap<DriverModule, object>();

/** `module` for TypeORM's documented `driver` option, its Pool kept for poolOf: docs/decisions/0006-database-access-public-api.md */
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

/** The pool withPoolKept kept for an initialized DataSource; throws, so a TypeORM that stops making it fails at start, not later. */
export function poolOf(dataSource: DataSource): QueryablePool {
  const { driver } = dataSource.options as { driver?: DriverModule };
  const pool = driver && (pools.get(driver) as Partial<QueryablePool> | undefined);
  if (typeof pool?.query !== 'function') {
    throw new Error("No pool was made from the DataSource's `driver` option: give it withPoolKept(driver), and initialize it first");
  }
  return pool as QueryablePool;
}
