import type { PGlite, PGliteOptions, Results } from '@electric-sql/pglite';
import { EventEmitter } from 'node:events';

type ConnectCallback = (error: Error | null, client: PGlitePool | null, release: () => void) => void;

const release = () => undefined;

/**
 * node-postgres's Pool, as TypeORM's `driver` option uses it, on a PGlite of its own. PGlite has one
 * session: it is the pool's one client. Not typeorm-pglite, which keeps one PGlite per process
 * (docs/decisions/0006-database-access-public-api.md).
 */
export class PGlitePool extends EventEmitter {
  private readonly database: Promise<PGlite>;

  constructor(options: PGliteOptions) {
    super();
    this.database = import('@electric-sql/pglite').then(({ PGlite }) => PGlite.create(options));
  }

  connect(callback: ConnectCallback): void {
    this.database.then(
      () => callback(null, this, release),
      (error: Error) => callback(error, null, release),
    );
  }

  /** With values, one statement; without, PGlite's exec, which runs several and answers with the last one's result, as TypeORM expects. */
  async query(text: string, values?: unknown[]): Promise<Results> {
    const database = await this.database;
    if (values !== undefined && values.length > 0) return database.query(text, values);
    return (await database.exec(text)).at(-1) ?? { rows: [], fields: [] };
  }

  end(callback: (error?: Error) => void): void {
    this.database.then((database) => database.close()).then(() => callback(), callback);
  }
}

/** A driver module for TypeORM's `driver` option whose every pool opens its own PGlite with `options`. */
export function pgliteDriver(options: PGliteOptions): { readonly Pool: new () => PGlitePool } {
  return {
    Pool: class extends PGlitePool {
      constructor() {
        super(options);
      }
    },
  };
}
