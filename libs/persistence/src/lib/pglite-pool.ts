import type { PGlite, PGliteOptions, Results } from '@electric-sql/pglite';
import { EventEmitter } from 'node:events';
import { context, type Span, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { QueryablePool } from './driver-pool';

type ConnectCallback = (error: Error | null, client: PGlitePool | null, release: () => void) => void;

const release = () => undefined;

/**
 * node-postgres's Pool, as the service and TypeORM's `driver` option use it, on a PGlite of its own. PGlite has one
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

  /** Closes the PGlite, as pg's Pool ends: with a callback (TypeORM), or a promise. */
  end(callback?: (error?: Error) => void): Promise<void> {
    const closed = this.database.then((database) => database.close());
    return callback ? closed.then(() => callback(), callback) : closed;
  }
}

/** A driver module for TypeORM's `driver` option, which makes its pool with `new`: this one hands over `pool`. */
export function pgliteDriver(pool: PGlitePool): { readonly Pool: new () => PGlitePool } {
  return {
    Pool: class {
      constructor() {
        return pool;
      }
    } as new () => PGlitePool,
  };
}

/** The instrumentation scope of the spans made here. */
export const STATEMENT_TRACER_NAME = '@petstore/persistence';

const tracer = trace.getTracer(STATEMENT_TRACER_NAME);

type Query = Parameters<QueryablePool['query']>[0];

/** A pool that takes SQL text alone, as PGlitePool does: PGlite prepares nothing under a name. */
interface TextPool {
  query(text: string, values: unknown[]): Promise<{ rows: unknown[] }>;
}

/**
 * The pool with instrumentation-pg-shaped client spans inside a request's span: PGlite bypasses `pg`, so nothing else traces it.
 * A named statement runs as its text.
 */
export function withStatementSpans(pool: TextPool, databaseName: string): QueryablePool {
  return {
    query(query, values) {
      const text = typeof query === 'string' ? query : query.text;
      const span = startStatementSpan(query, databaseName);
      if (!span) return pool.query(text, values);
      return pool.query(text, values).then(
        (result) => {
          span.end();
          return result;
        },
        (error: unknown) => {
          endFailedStatementSpan(span, error);
          throw error;
        },
      );
    },
  };
}

/** A statement's span, a child of the active span; undefined when there is none, as instrumentation-pg's requireParentSpan. */
function startStatementSpan(query: Query, databaseName: string): Span | undefined {
  if (trace.getSpan(context.active()) === undefined) return undefined;
  const text = typeof query === 'string' ? query : query.text;
  const plan = typeof query === 'string' ? undefined : query.name;
  return tracer.startSpan(`pg.query:${plan ?? operationName(text)} ${databaseName}`, {
    kind: SpanKind.CLIENT,
    attributes: {
      'db.system.name': 'postgresql',
      'db.namespace': databaseName,
      'db.query.text': text,
      ...(plan === undefined ? {} : { 'db.postgresql.plan': plan }),
    },
  });
}

/** Ends a failed statement's span as instrumentation-pg does: error status and message, an exception event of type and code. */
function endFailedStatementSpan(span: Span, error: unknown): void {
  const { name, code, message } = (error ?? {}) as { name?: string; code?: string; message?: string };
  span.recordException(`PostgreSQL error of type '${name ?? 'PostgreSQLError'}' occurred (code: ${code ?? 'UNKNOWN'})`);
  span.setStatus({ code: SpanStatusCode.ERROR, message });
  span.end();
}

/** The SQL's first word in capitals, instrumentation-pg's name for a statement that is not prepared under a name. */
function operationName(text: string): string {
  const trimmed = text.trim();
  const space = trimmed.indexOf(' ');
  const word = (space === -1 ? trimmed : trimmed.slice(0, space)).toUpperCase();
  return word.endsWith(';') ? word.slice(0, -1) : word;
}
