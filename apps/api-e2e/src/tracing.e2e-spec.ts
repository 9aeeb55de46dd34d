import { randomBytes } from 'node:crypto';
import { target } from './support/api';
import { type OtlpReceiver, type ReceivedSpan, SPAN_KIND, startOtlpReceiver } from './support/otlp-receiver';
import { AUTH, databaseEnv, freePort, outputOnceItShows, type RunningServer, startServer, stopCleanly } from './support/server';

// OpenTelemetry traces, on when an OTEL_* variable is set (docs/operations.md, "Traces"): the
// bundle exporting OTLP/JSON to a receiver of the test's own. Redis spans need TEST_REDIS_URL.
const redisUrl = process.env.TEST_REDIS_URL;

// SQL spans: instrumentation-pg's on PostgreSQL; on PGlite, which does not go through `pg`, the
// persistence lib's own, of the same shape, on the database PGlite opens.
const SQL_SCOPE = target === 'pglite' ? '@petstore/persistence' : '@opentelemetry/instrumentation-pg';
const PGLITE_DATABASE = 'postgres';

/** A caller's span, as its traceparent header (W3C Trace Context) sends it: sampled. */
function callerSpan() {
  const [traceId, spanId] = [randomBytes(16).toString('hex'), randomBytes(8).toString('hex')];
  return { traceId, spanId, traceparent: `00-${traceId}-${spanId}-01` };
}

type Caller = ReturnType<typeof callerSpan>;

async function createPet(server: RunningServer, caller: Caller): Promise<void> {
  const response = await fetch(`${server.url}/v1/pets`, {
    method: 'POST',
    headers: { ...AUTH, 'content-type': 'application/json', traceparent: caller.traceparent },
    body: JSON.stringify({ name: `traced ${caller.spanId}`, categoryId: 1, status: 'available' }),
  });
  expect(response.status).toBe(201);
}

/** The service's JSON log line that answers the caller's request. */
async function accessLogLine(server: RunningServer, caller: Caller): Promise<Record<string, unknown> | undefined> {
  const output = await outputOnceItShows(server, new RegExp(`"trace_id":"${caller.traceId}".*"msg":"request completed"`));
  const lines = output.split('\n').filter((line) => line.startsWith('{'));
  return lines.map((line) => JSON.parse(line) as Record<string, unknown>).find((line) => line.trace_id === caller.traceId);
}

describe('OpenTelemetry traces', () => {
  let receiver: OtlpReceiver;
  let server: RunningServer;
  const database = databaseEnv(target);

  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    server = await startServer({
      ...database,
      ...(redisUrl ? { REDIS_URL: redisUrl } : {}),
      // JSON log lines, each request's included.
      NODE_ENV: 'production',
      LOG_LEVEL: 'info',
      // Never refused: in Redis, the key's budget is shared with every instance that has the same keys.
      RATE_LIMIT_PER_MINUTE: '1000000000',
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      // Exported within 0.1 s instead of 5.
      OTEL_BSP_SCHEDULE_DELAY: '100',
    });
  });

  afterAll(async () => {
    await server?.stop();
    await receiver?.close();
  });

  /** Creates a pet as the caller; resolves with the spans of its trace once its server span and whatever `more` waits for arrived. */
  async function traceOfCreatePet(caller: Caller, more: (spans: readonly ReceivedSpan[]) => boolean = () => true) {
    await createPet(server, caller);
    const inTrace = (spans: readonly ReceivedSpan[]) => spans.filter((span) => span.traceId === caller.traceId);
    const trace = inTrace(
      await receiver.spansOnce((spans) => inTrace(spans).some((span) => span.kind === SPAN_KIND.SERVER) && more(inTrace(spans))),
    );
    const servers = trace.filter((span) => span.kind === SPAN_KIND.SERVER);
    expect(servers).toHaveLength(1);
    return { serverSpan: servers[0], trace };
  }

  it("continues the caller's trace: one server span, its child, named by the route template", async () => {
    const caller = callerSpan();
    const { serverSpan } = await traceOfCreatePet(caller);
    expect(serverSpan).toMatchObject({
      scope: '@opentelemetry/instrumentation-http',
      traceId: caller.traceId,
      parentSpanId: caller.spanId,
      name: 'POST /v1/pets',
      attributes: expect.objectContaining({
        'http.route': '/v1/pets',
        'http.request.method': 'POST',
        'http.response.status_code': 201,
        'client.address': '127.0.0.1',
      }),
    });
    expect(receiver.resources()).toContainEqual(expect.objectContaining({ 'service.name': 'petstore' }));
  });

  it("logs the request's line with the server span's trace_id and span_id", async () => {
    const caller = callerSpan();
    const { serverSpan } = await traceOfCreatePet(caller);
    expect(await accessLogLine(server, caller)).toMatchObject({
      msg: 'request completed',
      method: 'POST',
      url: '/v1/pets',
      statusCode: 201,
      trace_id: caller.traceId,
      span_id: serverSpan.spanId,
    });
  });

  it('has a span for each SQL statement, a child of the server span', async () => {
    const caller = callerSpan();
    const isSql = (span: ReceivedSpan) => span.scope === SQL_SCOPE;
    const { serverSpan, trace } = await traceOfCreatePet(caller, (spans) => spans.some(isSql));
    const statements = trace.filter(isSql);
    // One span per statement: none from another scope as well.
    expect(trace.filter((span) => span.attributes['db.system.name'] === 'postgresql')).toEqual(statements);
    const inserts = statements.filter((span) => /^INSERT INTO pets\b/.test(String(span.attributes['db.query.text'])));
    expect(inserts).toHaveLength(1);
    const databaseName = target === 'pglite' ? PGLITE_DATABASE : new URL(database.DATABASE_URL).pathname.slice(1);
    // A named prepared statement gives the span its name; without (behind PgBouncer 1.18, or on PGlite), the SQL's first word.
    const plan = inserts[0].attributes['db.postgresql.plan'] as string | undefined;
    expect(plan === undefined).toBe(target === 'pglite' || database.DATABASE_PREPARED_STATEMENTS === 'false');
    expect(inserts[0]).toMatchObject({
      name: `pg.query:${plan ?? 'INSERT'} ${databaseName}`,
      attributes: expect.objectContaining({ 'db.system.name': 'postgresql', 'db.namespace': databaseName }),
    });
    for (const statement of statements) expect(statement).toMatchObject({ kind: SPAN_KIND.CLIENT, parentSpanId: serverSpan.spanId });
  });

  (redisUrl ? it : it.skip)('has a span for each Redis command, a child of the server span', async () => {
    const caller = callerSpan();
    const isRedis = (span: ReceivedSpan) => span.scope === '@opentelemetry/instrumentation-ioredis';
    const { serverSpan, trace } = await traceOfCreatePet(caller, (spans) => spans.some(isRedis));
    const commands = trace.filter(isRedis);
    expect(commands.length).toBeGreaterThan(0);
    for (const command of commands) {
      expect(command).toMatchObject({
        kind: SPAN_KIND.CLIENT,
        parentSpanId: serverSpan.spanId,
        name: command.attributes['db.operation.name'],
        attributes: expect.objectContaining({ 'db.system.name': 'redis' }),
      });
    }
  });
});

describe('OpenTelemetry traces turned off by OTEL_SDK_DISABLED=true', () => {
  it('exports nothing and logs no trace ids', async () => {
    const receiver = await startOtlpReceiver();
    const server = await startServer({
      ...databaseEnv(target),
      NODE_ENV: 'production',
      LOG_LEVEL: 'info',
      OTEL_SDK_DISABLED: 'true',
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
    });
    try {
      await createPet(server, callerSpan());
      const output = await outputOnceItShows(server, '"msg":"request completed"');
      expect(output).toContain('"msg":"request completed"');
      expect(output).not.toContain('trace_id');
    } finally {
      // Spans still queued would be exported at shutdown.
      await server.stop();
      await receiver.close();
    }
    expect(receiver.spans()).toEqual([]);
  });
});

describe('OpenTelemetry traces with the collector down', () => {
  it('neither fail nor hold the shutdown: the spans still queued are given up, with a warning', async () => {
    const server = await startServer({
      ...databaseEnv(target),
      NODE_ENV: 'production',
      OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${await freePort()}`,
    });
    await createPet(server, callerSpan());
    // Not 1: a shutdown held past its grace (server.ts) by the failing export would exit 1.
    await stopCleanly(server);
    expect(server.output()).toMatch(/"level":40,.*"msg":"Spans still queued at shutdown were not exported: /);
  });
});
