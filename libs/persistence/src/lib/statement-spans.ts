import { context, type Span, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { QueryablePool } from './driver-pool';

/** The instrumentation scope of the spans made here. */
export const STATEMENT_TRACER_NAME = '@petstore/persistence';

const tracer = trace.getTracer(STATEMENT_TRACER_NAME);

type Query = Parameters<QueryablePool['query']>[0];

/**
 * The pool, with a client span for each statement run within a span (a request's), shaped as
 * @opentelemetry/instrumentation-pg shapes them on PostgreSQL: PGlite does not go through `pg`, so
 * nothing else traces its statements. Outside a span (tracing off, migrations, the sweeper) a
 * statement runs as it would without this.
 */
export function withStatementSpans(pool: QueryablePool, databaseName: string): QueryablePool {
  return {
    query(query, values) {
      const span = startStatementSpan(query, databaseName);
      if (!span) return pool.query(query, values);
      return pool.query(query, values).then(
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

/** Ends a failed statement's span as instrumentation-pg does: an error status with the message, an exception event with the type and code only. */
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
