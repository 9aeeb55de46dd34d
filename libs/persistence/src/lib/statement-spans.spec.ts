import { context, type Span, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor, StackContextManager, TracerProvider } from '@opentelemetry/sdk-trace';
import type { QueryablePool } from './driver-pool';
import { STATEMENT_TRACER_NAME, withStatementSpans } from './pglite-pool';

const INSERT = 'INSERT INTO pets (name, category_id, status) VALUES ($1, $2, $3) RETURNING id';

describe('withStatementSpans: a span for each statement run within a span', () => {
  const exported = new InMemorySpanExporter();
  const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter: exported })] });
  const rows = [{ id: 1n }];
  const pool = { query: jest.fn<ReturnType<QueryablePool['query']>, [string, unknown[]]>() };
  const traced = withStatementSpans(pool, 'postgres');

  beforeAll(() => {
    context.setGlobalContextManager(new StackContextManager().enable());
    trace.setGlobalTracerProvider(provider);
  });

  afterAll(async () => {
    trace.disable();
    context.disable();
    await provider.shutdown();
  });

  beforeEach(() => {
    exported.reset();
    pool.query.mockReset().mockResolvedValue({ rows });
  });

  /** Runs `work` within a request's span, as the HTTP instrumentation makes one, and ends it. */
  async function inRequestSpan<T>(work: () => Promise<T>): Promise<{ outcome: PromiseSettledResult<T>; request: Span }> {
    const request = trace.getTracer('test').startSpan('POST /v1/pets', { kind: SpanKind.SERVER });
    const [outcome] = await Promise.allSettled([context.with(trace.setSpan(context.active(), request), work)]);
    request.end();
    return { outcome, request };
  }

  const statementSpans = () => exported.getFinishedSpans().filter((span) => span.instrumentationScope.name === STATEMENT_TRACER_NAME);

  it("makes a client span, the request span's child, shaped as instrumentation-pg's on PostgreSQL", async () => {
    const { outcome, request } = await inRequestSpan(() => traced.query(INSERT, ['Rex', 1, 'available']));
    expect(outcome).toEqual({ status: 'fulfilled', value: { rows } });
    expect(pool.query).toHaveBeenCalledWith(INSERT, ['Rex', 1, 'available']);
    const [span, ...others] = statementSpans();
    expect(others).toEqual([]);
    expect(span.parentSpanContext?.spanId).toBe(request.spanContext().spanId);
    expect(span.spanContext().traceId).toBe(request.spanContext().traceId);
    expect(span).toMatchObject({
      name: 'pg.query:INSERT postgres',
      kind: SpanKind.CLIENT,
      status: { code: SpanStatusCode.UNSET },
      ended: true,
    });
    expect(span.attributes).toEqual({ 'db.system.name': 'postgresql', 'db.namespace': 'postgres', 'db.query.text': INSERT });
  });

  it("names a prepared statement's span by the statement's name, which it records as the plan, and runs its text on PGlite", async () => {
    await inRequestSpan(() => traced.query({ name: 'pets_insert', text: INSERT }, []));
    expect(pool.query).toHaveBeenCalledWith(INSERT, []);
    const [span] = statementSpans();
    expect(span.name).toBe('pg.query:pets_insert postgres');
    expect(span.attributes).toMatchObject({ 'db.query.text': INSERT, 'db.postgresql.plan': 'pets_insert' });
  });

  it.each([
    ['leading white space and lower case', '\n    with claim AS (SELECT 1) SELECT * FROM claim', 'WITH'],
    ['a word alone, with its semicolon', 'commit;', 'COMMIT'],
  ])('names an unprepared statement by its first word, as instrumentation-pg: %s', async (_case, text, operation) => {
    await inRequestSpan(() => traced.query(text, []));
    expect(statementSpans().map((span) => span.name)).toEqual([`pg.query:${operation} postgres`]);
  });

  it("marks a failed statement's span as an error, without the message in its exception, and rethrows the error as it was", async () => {
    const failure = Object.assign(new Error('duplicate key value violates unique constraint "pets_pkey"'), { code: '23505' });
    pool.query.mockRejectedValue(failure);
    const { outcome } = await inRequestSpan(() => traced.query(INSERT, []));
    expect(outcome).toEqual({ status: 'rejected', reason: failure });
    const [span] = statementSpans();
    expect(span.status).toEqual({ code: SpanStatusCode.ERROR, message: failure.message });
    expect(span.events.map((event) => event.attributes)).toEqual([
      expect.objectContaining({ 'exception.message': "PostgreSQL error of type 'Error' occurred (code: 23505)" }),
    ]);
    expect(span.ended).toBe(true);
  });

  it("makes no span outside a span (tracing off, migrations, the sweeper) and hands back the pool's own answer", async () => {
    const answer = Promise.resolve({ rows });
    pool.query.mockReturnValue(answer);
    expect(traced.query(INSERT, [])).toBe(answer);
    await answer;
    expect(exported.getFinishedSpans()).toEqual([]);
  });
});
